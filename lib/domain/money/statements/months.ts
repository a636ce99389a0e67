import { dayStartMs, type Month, monthAfter, monthBefore, monthOf } from '../../shared/calendar.ts';
import { rateCards } from '../pricing/cards/index.ts';

// A statement's months (decisions §27, §30): the calendar's months (shared/calendar.ts), YYYY-MM. The close time
// is counted in UTC here and only here (the billing timezone of §31 is a later issue).

/** The day of the next month a month closes on, at its start (decisions §30: 00:00 on the 3rd). */
const CLOSING_DAY = '03';

/** The instant a month is due to close: the 3rd day of the next month, at its start (UTC). */
export const closesAt = (month: Month) => dayStartMs(`${monthAfter(month)}-${CLOSING_DAY}`);

/**
 * How long after a month's close time the close job keeps it: longer than any function runs (15 minutes), so a
 * status applied on time (its clock before the close time) has committed before the month is kept.
 */
export const CLOSE_GRACE_MS = 15 * 60_000;

/** The last month whose close time has passed at `nowMs`: the month before last until the 3rd, then last month. */
export function lastMonthToClose(nowMs: number): Month {
  const last = monthBefore(monthOf(nowMs));
  return nowMs >= closesAt(last) ? last : monthBefore(last);
}

/**
 * Where a charge of `day` applied at `appliedAtMs` is billed when its month has closed by then (decisions §30):
 * the month open at that instant, whose statement bills it as an adjustment; undefined when it is on time (its
 * own month's statement bills it). Routed as it is applied, so no read of a month ever looks at another.
 */
export function lateFiledUnder(day: string, appliedAtMs: number): Month | undefined {
  return appliedAtMs >= closesAt(monthOf(day)) ? monthAfter(lastMonthToClose(appliedAtMs)) : undefined;
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
