import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayIn, dayOf, dayStartIn, dayStartMs } from '#lib/domain/shared/calendar.ts';
import { META_TIMEZONE_COUNT, META_TIMEZONES, META_UTC_TIMEZONE_ID, zoneOfMetaTimezone } from '#lib/domain/shared/meta-timezones.ts';

const ZONES = [...META_TIMEZONES.values()];
const at = (iso: string) => Date.parse(iso);

describe("Meta's timezone ids (lib/domain/shared/meta-timezones.ts, decisions §31)", () => {
  it('names every id of Meta’s table once, each a zone Intl accepts', () => {
    // Prepare
    const ids = [...META_TIMEZONES.keys()];
    // Act
    const refused = ZONES.filter((zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return false;
      } catch {
        return true;
      }
    });
    // Assess: ids 1–475 of the source, in order, none twice, no zone twice
    expect(refused).toEqual([]);
    expect(ids).toEqual(Array.from({ length: META_TIMEZONE_COUNT }, (_, i) => String(i + 1)));
    expect(new Set(ZONES).size).toBe(META_TIMEZONE_COUNT);
  });

  it('gives the zones the sources give the ids the service meets, and none for an unknown id', () => {
    // Prepare
    const ids = ['1', '71', '105', '145', '474', ' 58 ', '0', '9999', undefined];
    // Act
    const zones = ids.map(zoneOfMetaTimezone);
    // Assess
    expect(zones).toEqual([
      'America/Los_Angeles',
      'Asia/Kolkata',
      'Asia/Karachi',
      'Asia/Kathmandu',
      'UTC',
      'Europe/London',
      undefined,
      undefined,
      undefined,
    ]);
    expect(zoneOfMetaTimezone(META_UTC_TIMEZONE_ID)).toBe('UTC');
  });
});

describe('days in a zone (calendar.ts dayIn, dayStartIn)', () => {
  it('counts a day where the zone’s clock says: India +05:30 and Nepal +05:45 are a day ahead at 20:00 UTC', () => {
    // Prepare
    const lateSeptember = at('2026-09-30T20:00:00Z');
    // Act
    const days = ['UTC', 'Asia/Kolkata', 'Asia/Kathmandu', 'America/Los_Angeles'].map((zone) => dayIn(lateSeptember, zone));
    const starts = ['Asia/Kolkata', 'Asia/Kathmandu', 'UTC'].map((zone) => new Date(dayStartIn('2026-10-01', zone)).toISOString());
    // Assess
    expect(days).toEqual(['2026-09-30', '2026-10-01', '2026-10-01', '2026-09-30']);
    expect(starts).toEqual(['2026-09-30T18:30:00.000Z', '2026-09-30T18:15:00.000Z', '2026-10-01T00:00:00.000Z']);
  });

  it('starts a day at its local midnight on clock-change days, and after it where the change skips midnight', () => {
    // Prepare: New York springs forward at 02:00 and falls back at 02:00; Santiago skips 00:00 on 2026-09-06
    const days: [string, string][] = [
      ['2026-03-08', 'America/New_York'],
      ['2026-03-09', 'America/New_York'],
      ['2026-11-01', 'America/New_York'],
      ['2026-11-02', 'America/New_York'],
      ['2026-03-29', 'Europe/London'],
      ['2026-09-06', 'America/Santiago'],
    ];
    // Act
    const starts = days.map(([day, zone]) => new Date(dayStartIn(day, zone)).toISOString());
    // Assess
    expect(starts).toEqual([
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
      '2026-11-01T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
      '2026-03-29T00:00:00.000Z',
      '2026-09-06T04:00:00.000Z',
    ]);
    expect(dayIn(dayStartIn('2026-09-06', 'America/Santiago') - 1, 'America/Santiago')).toBe('2026-09-05');
  });

  it('starts every day of every zone of Meta’s table on that day, and its instant before on the day before', () => {
    // Prepare: the days the service bills (from 2020: earlier, two Pacific zones skipped a whole day)
    const days = fc.integer({ min: dayStartMs('2020-01-01'), max: dayStartMs('2099-12-31') }).map((ms) => dayOf(ms));
    const zones = fc.constantFrom(...ZONES);
    // Act + Assess
    fc.assert(
      fc.property(days, zones, (day, zone) => {
        const start = dayStartIn(day, zone);
        return dayIn(start, zone) === day && dayIn(start - 1, zone) < day;
      }),
      { numRuns: 2000 },
    );
  });
});
