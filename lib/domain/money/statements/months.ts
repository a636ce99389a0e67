import { CALENDAR_ZONE, dayIn, dayStartIn, dayStartMs, type Month, monthAfter, monthBefore, monthOf } from '../../shared/calendar.ts';
import type { ClientClocks } from '../billing-zone.ts';
import { rateCards } from '../pricing/cards/index.ts';

// A statement's months (decisions §27, §30): the calendar's months (shared/calendar.ts), YYYY-MM, closing in a zone
// (decisions §31: the client's billing timezone, billing-zone.ts; UTC where none is given).

/** The day of the next month a month closes on, at its start (decisions §30: 00:00 on the 3rd). */
const CLOSING_DAY = '03';

/** The instant a month is due to close: the 3rd day of the next month, at its start in `zone`. */
export function closesAt(month: Month, zone: string = CALENDAR_ZONE) {
  const day = `${monthAfter(month)}-${CLOSING_DAY}`;
  return zone === CALENDAR_ZONE ? dayStartMs(day) : dayStartIn(day, zone);
}

/**
 * How long after a month's close time the close job keeps it: longer than any function runs (15 minutes), so a
 * status applied on time (its clock before the close time) has committed before the month is kept.
 */
export const CLOSE_GRACE_MS = 15 * 60_000;

/**
 * The last month whose close time in `zone` has passed at `nowMs`: the month before last until the 3rd there, then
 * last month.
 */
export function lastMonthToClose(nowMs: number, zone: string = CALENDAR_ZONE): Month {
  const last = monthBefore(monthOf(dayIn(nowMs, zone)));
  return nowMs >= closesAt(last, zone) ? last : monthBefore(last);
}

/**
 * The last month the close job may keep at `atMs` (decisions §30, §31): one whose close time, plus the grace, has
 * passed in the set zone or, without one, in every WABA's zone, so no on-time charge of any WABA comes after it.
 */
export function lastMonthToKeep(clocks: ClientClocks, atMs: number): Month {
  const zones = clocks.set ? [clocks.set] : clocks.wabas.length > 0 ? clocks.wabas : [CALENDAR_ZONE];
  return zones.map((zone) => lastMonthToClose(atMs - CLOSE_GRACE_MS, zone)).sort()[0];
}

/**
 * Where a charge of `day` applied at `appliedAtMs` is billed when its month has closed by then in `zone` (decisions
 * §30, §31): the month open at that instant, whose statement bills it as an adjustment; undefined when it is on
 * time (its own month's statement bills it). Routed as it is applied, so no read of a month ever looks at another.
 */
export function lateFiledUnder(day: string, appliedAtMs: number, zone: string = CALENDAR_ZONE): Month | undefined {
  return appliedAtMs >= closesAt(monthOf(day), zone) ? monthAfter(lastMonthToClose(appliedAtMs, zone)) : undefined;
}

/**
 * The first month the service can have charged: its first rate card's. No client's ledger starts before it, so
 * the search for a client's first charge starts here, and any month before it (years 0000-0099 included, which
 * Date would read as 1900-1999) has no statement.
 */
export const FIRST_MONTH: Month = monthOf(
  rateCards
    .all()
    .map((card) => card.effective_from)
    .sort()[0],
);

/** The months from `from` to `to`, both included, in order. */
export function monthsFrom(from: Month, to: Month): Month[] {
  const months: Month[] = [];
  for (let month = from; month <= to; month = monthAfter(month)) months.push(month);
  return months;
}
