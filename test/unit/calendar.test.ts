import { describe, expect, it } from 'vitest';
import {
  CALENDAR_ZONE,
  DAY_MS,
  dayOf,
  daysBefore,
  daysBetween,
  daysOfMonth,
  dayStartMs,
  isDay,
  monthAfter,
  monthBefore,
  monthOf,
} from '#lib/domain/shared/calendar.ts';

describe('the calendar: days and months in UTC (lib/domain/shared/calendar.ts)', () => {
  it('names the day and month of an instant in UTC, as milliseconds or as a timestamp', () => {
    // Prepare: a minute before midnight UTC, which is already the next day east of it
    const at = Date.UTC(2026, 0, 31, 23, 59);
    // Act
    const days = [dayOf(at), dayOf(new Date(at).toISOString()), dayOf('2026-03-01')];
    const months = [monthOf(at), monthOf('2026-03-01'), monthOf('2026-12-31T23:59:59.999Z')];
    // Assess
    expect(CALENDAR_ZONE).toBe('UTC');
    expect(days).toEqual(['2026-01-31', '2026-01-31', '2026-03-01']);
    expect(months).toEqual(['2026-01', '2026-03', '2026-12']);
  });

  it('knows the days of the calendar from other texts', () => {
    // Prepare
    const texts = ['2026-02-28', '2028-02-29', '2026-02-30', '2026-13-01', '2026-1-01', 'yesterday'];
    // Act
    const days = texts.map(isDay);
    // Assess
    expect(days).toEqual([true, true, false, false, false, false]);
  });

  it('counts days between days and before an instant', () => {
    // Prepare
    const now = '2026-03-01T08:00:00.000Z';
    // Act
    const between = [
      daysBetween('2026-02-27', '2026-03-01'),
      daysBetween('2026-03-01', '2026-03-01'),
      daysBetween('2026-03-02', '2026-03-01'),
    ];
    const before = [daysBefore(now, 1), daysBefore(Date.parse(now), 30)];
    // Assess
    expect(between).toEqual([2, 0, -1]);
    expect(before).toEqual(['2026-02-28', '2026-01-30']);
    expect(dayStartMs('2026-03-01')).toBe(Date.UTC(2026, 2, 1));
    expect(DAY_MS).toBe(24 * 60 * 60 * 1000);
  });

  it('gives a month its first and last day, and the months on either side across a year', () => {
    // Prepare
    const months = ['2026-02', '2028-02', '2026-12', '2026-01'];
    // Act
    const days = months.map(daysOfMonth);
    const before = months.map(monthBefore);
    const after = months.map(monthAfter);
    // Assess
    expect(days).toEqual([
      { from: '2026-02-01', to: '2026-02-28' },
      { from: '2028-02-01', to: '2028-02-29' },
      { from: '2026-12-01', to: '2026-12-31' },
      { from: '2026-01-01', to: '2026-01-31' },
    ]);
    expect(before).toEqual(['2026-01', '2028-01', '2026-11', '2025-12']);
    expect(after).toEqual(['2026-03', '2028-03', '2027-01', '2026-02']);
  });
});
