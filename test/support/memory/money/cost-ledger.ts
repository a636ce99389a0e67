import type { CostLedger, LedgerEntry, MetaCostEntry } from '#lib/domain/money/ports.ts';
import { copy } from '../copy.ts';

/** The cost ledger in memory: charges as the status path would add them (`charge`), and Meta's figures as read. */
export class MemoryCostLedger implements CostLedger {
  readonly entries: { waba_id: string; client_id: number; entry: LedgerEntry }[] = [];
  /** Meta's figures of a WABA's day, by `<waba>|<day>`, and how many times each was put. */
  readonly meta = new Map<string, { entries: MetaCostEntry[]; read_at: string; puts: number }>();

  charge(wabaId: string, clientId: number, entry: LedgerEntry) {
    this.entries.push({ waba_id: wabaId, client_id: clientId, entry: copy(entry) });
  }

  async charges(wabaIds: string[], clientId: number, from: string, to: string) {
    return copy(
      this.entries
        .filter((e) => wabaIds.includes(e.waba_id) && e.client_id === clientId && e.entry.day >= from && e.entry.day <= to)
        .map((e) => e.entry),
    );
  }
  async wabaDay(wabaId: string, day: string) {
    return copy(
      this.entries.filter((e) => e.waba_id === wabaId && e.entry.day === day).map(({ client_id, entry }) => ({ client_id, entry })),
    );
  }
  async metaCosts(wabaIds: string[], from: string, to: string) {
    return copy(
      [...this.meta]
        .filter(([key]) => {
          const [waba, day] = key.split('|');
          return wabaIds.includes(waba) && day >= from && day <= to;
        })
        .flatMap(([, day]) => day.entries),
    );
  }
  async putMetaCosts(wabaId: string, day: string, entries: MetaCostEntry[], readAt: string) {
    const puts = (this.meta.get(`${wabaId}|${day}`)?.puts ?? 0) + 1;
    this.meta.set(`${wabaId}|${day}`, { entries: copy(entries), read_at: readAt, puts });
  }
}
