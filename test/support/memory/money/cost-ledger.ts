import type { AdjustmentEntry, CostLedger, LedgerEntry, MetaCostEntry, MetaShare } from '#lib/domain/money/ports.ts';
import { lateFiledUnder } from '#lib/domain/money/statements/months.ts';
import { copy } from '../copy.ts';
import { filedAs, type LedgerRead, markedLate } from './late-charges.ts';

/**
 * The cost ledger in memory: charges as the status path would add them (`charge`), and Meta's figures as read. A
 * charge is applied at the time given, or the clock's when the ledger has one; with neither, on time (before its
 * month closed). Applied after its month closed, it is marked late on its day and filed under the month open then.
 */
export class MemoryCostLedger implements CostLedger {
  readonly entries: { waba_id: string; client_id: number; entry: LedgerEntry }[] = [];
  /** Late charges as filed (decisions §30): each also in `entries`, marked late on its day. */
  readonly filed: { waba_id: string; client_id: number; entry: AdjustmentEntry }[] = [];
  /** Meta's figures of a WABA's day, by `<waba>|<day>`, and how many times each was put. */
  readonly meta = new Map<string, { entries: MetaCostEntry[]; read_at: string; puts: number }>();
  /** Each client's parts of Meta's figures (decisions §32), by `<client>|<waba>|<day>`. */
  readonly shares = new Map<string, MetaShare[]>();
  /** The reads of charges and adjustments, in order. */
  readonly reads: LedgerRead[] = [];

  constructor(private readonly clock?: () => number) {}

  /** A charge applied at `appliedAtMs`, late by its month's close in `zone` (decisions §31; UTC where not given). */
  charge(wabaId: string, clientId: number, entry: LedgerEntry, appliedAtMs = this.clock?.(), zone?: string) {
    const month = appliedAtMs === undefined ? undefined : lateFiledUnder(entry.day, appliedAtMs, zone);
    this.entries.push({ waba_id: wabaId, client_id: clientId, entry: month ? markedLate(entry) : copy(entry) });
    if (month) this.filed.push({ waba_id: wabaId, client_id: clientId, entry: filedAs(entry, month) });
  }

  async charges(wabaIds: string[], clientId: number, from: string, to: string) {
    this.reads.push({ method: 'charges', from, to });
    return copy(
      this.entries
        .filter((e) => wabaIds.includes(e.waba_id) && e.client_id === clientId && e.entry.day >= from && e.entry.day <= to)
        .map((e) => e.entry),
    );
  }
  async adjustments(wabaIds: string[], clientId: number, from: string, to: string) {
    this.reads.push({ method: 'adjustments', from, to });
    return copy(
      this.filed
        .filter((e) => wabaIds.includes(e.waba_id) && e.client_id === clientId && e.entry.month >= from && e.entry.month <= to)
        .map((e) => e.entry),
    );
  }
  async wabaDay(wabaId: string, clientIds: number[], day: string) {
    return copy(
      this.entries
        .filter((e) => e.waba_id === wabaId && clientIds.includes(e.client_id) && e.entry.day === day)
        .map(({ client_id, entry }) => ({ client_id, entry })),
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
  async putMetaShares(clientId: number, wabaId: string, day: string, shares: MetaShare[]) {
    this.shares.set(`${clientId}|${wabaId}|${day}`, copy(shares));
  }
  async metaShares(clientId: number, from: string, to: string) {
    return copy(
      [...this.shares]
        .map(([key, shares]) => {
          const [client, waba_id, day] = key.split('|');
          return { client: Number(client), waba_id, day, shares };
        })
        .filter((s) => s.client === clientId && s.day >= from && s.day <= to)
        .map(({ waba_id, day, shares }) => ({ waba_id, day, shares })),
    );
  }
}
