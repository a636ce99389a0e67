/**
 * The calendar the service counts in: days (YYYY-MM-DD) and months (YYYY-MM) of one zone, UTC (decisions §24,
 * §27: usage, budgets, statements, rate cards and price lists all turn their day and month here). Every helper
 * below reads and writes that zone (Date.UTC, toISOString), except `dayIn` and `dayStartIn`: a WABA's day in its
 * own zone (decisions §31), where Meta's card switches, tier months and `pricing_analytics` days turn.
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

/** One formatter a zone: building one is slow, and a batch asks the same zone again and again. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string) {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The day an instant falls on in an IANA zone (decisions §31: the WABA's day); UTC's is `dayOf`'s. */
export function dayIn(at: Instant, zone: string): Day {
  if (zone === CALENDAR_ZONE) return dayOf(at);
  const parts = formatterOf(zone).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/** How far a zone's clock may be from UTC, and more: a day's start there lies within this of its UTC midnight. */
const WIDEST_OFFSET_MS = 15 * 3_600_000;

/**
 * The instant a day starts in an IANA zone (ms): its first instant whose day there is that day, 00:00 or, where a
 * clock change skips midnight, the first time after it. Found by halving the span around the day's UTC midnight
 * that every zone's start lies in, so it needs no table of offsets.
 */
export function dayStartIn(day: Day, zone: string): number {
  const key = `${zone}|${day}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    // A batch asks the same few days again and again; the halving costs some 27 formattings a day.
    if (dayStarts.size >= DAY_STARTS_KEPT) dayStarts.clear();
    start = searchDayStart(day, zone);
    dayStarts.set(key, start);
  }
  return start;
}

/** Days' starts found, by `<zone>|<day>`: at most DAY_STARTS_KEPT, then found afresh. */
const dayStarts = new Map<string, number>();
const DAY_STARTS_KEPT = 4096;

function searchDayStart(day: Day, zone: string): number {
  let before = dayStartMs(day) - WIDEST_OFFSET_MS;
  let from = dayStartMs(day) + WIDEST_OFFSET_MS;
  while (from - before > 1) {
    const middle = Math.floor((before + from) / 2);
    if (dayIn(middle, zone) >= day) from = middle;
    else before = middle;
  }
  return from;
}
