import { dayStartMs, type Month, monthAfter } from '../../shared/calendar.ts';

// A statement's months (decisions §27): the calendar's months (shared/calendar.ts), YYYY-MM.

/** The instant a month closes (decisions §27): the 3rd day of the next month, at its start. */
export const closesAt = (month: Month) => dayStartMs(`${monthAfter(month)}-03`);

/** `open` until the 3rd of the next month, `closed` from then on. */
export const statusOf = (month: Month, nowMs: number): 'open' | 'closed' => (nowMs >= closesAt(month) ? 'closed' : 'open');
