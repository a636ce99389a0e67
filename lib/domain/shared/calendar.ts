/**
 * The calendar the service counts in: days (YYYY-MM-DD) and months (YYYY-MM) of one zone, UTC (decisions §24,
 * §27: usage, budgets, statements, rate cards and price lists all turn their day and month here). Every helper
 * below reads and writes that zone (Date.UTC, toISOString), so counting in another is a change of this file.
 */
export const CALENDAR_ZONE = 'UTC';

/** A day's length in the calendar's zone (UTC has no daylight saving). */
export const DAY_MS = 86_400_000;
export const DAY_SECONDS = DAY_MS / 1000;

/** A day of the calendar, YYYY-MM-DD. */
export type Day = string;
/** A month of the calendar, YYYY-MM. */
export type Month = string;

/** An instant: milliseconds since the epoch, or a timestamp as toISOString writes it (already in UTC). */
export type Instant = number | string;

const isoOf = (at: Instant) => (typeof at === 'string' ? at : new Date(at).toISOString());

/** The day of an instant; a day is its own day. */
export const dayOf = (at: Instant): Day => isoOf(at).slice(0, 10);

/** The month of an instant or of a day. */
export const monthOf = (at: Instant): Month => isoOf(at).slice(0, 7);

/** The instant a day starts (ms), or NaN when the text is no day. */
export const dayStartMs = (day: Day) => Date.parse(`${day}T00:00:00Z`);

/** Whether a text is a day of the calendar (2026-02-30 is not). */
export function isDay(text: string) {
  const ms = dayStartMs(text);
  return !Number.isNaN(ms) && dayOf(ms) === text;
}

/** Whole days from one day to another (0 for the same day, negative when `to` is before). */
export const daysBetween = (from: Day, to: Day) => (dayStartMs(to) - dayStartMs(from)) / DAY_MS;

/** The day `n` days before an instant's. */
export const daysBefore = (at: Instant, n: number): Day => dayOf(new Date(at).getTime() - n * DAY_MS);

const yearAndMonth = (month: Month) => month.split('-').map(Number) as [number, number];

/** A month's first and last day. */
export function daysOfMonth(month: Month): { from: Day; to: Day } {
  const [y, m] = yearAndMonth(month);
  return { from: `${month}-01`, to: dayOf(Date.UTC(y, m, 0)) };
}

/** The month before a month. */
export function monthBefore(month: Month): Month {
  const [y, m] = yearAndMonth(month);
  return monthOf(Date.UTC(y, m - 2, 1));
}

/** The month after a month. */
export function monthAfter(month: Month): Month {
  const [y, m] = yearAndMonth(month);
  return monthOf(Date.UTC(y, m, 1));
}
