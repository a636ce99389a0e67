import type { AdjustmentEntry, LedgerEntry } from '#lib/domain/money/ports.ts';
import { monthOf } from '#lib/domain/shared/calendar.ts';

// Late charges in memory (decisions §30), as lib/adapters/dynamo/money/ledger-items.ts writes them: the day's entry
// marked late, and the charge filed under the month open when it was applied.

/** A day's entry applied after its month closed: all of it late. */
export const markedLate = (entry: LedgerEntry): LedgerEntry => ({
  ...structuredClone(entry),
  late: {
    messages: entry.messages,
    billable: entry.billable,
    micros: entry.micros,
    ...(entry.price_micros !== undefined && { price_micros: entry.price_micros }),
  },
});

/** A late charge as filed under `month`, naming the month it was charged in. */
export function filedAs(entry: LedgerEntry, month: string): AdjustmentEntry {
  const { day, late: _late, ...rest } = structuredClone(entry);
  return { ...rest, month, of_month: monthOf(day) };
}

/** A ledger read, by port method and range (days, or months filed under): what a statement read reads. */
export interface LedgerRead {
  method: 'charges' | 'adjustments';
  from: string;
  to: string;
}
