import type { CostLedger, LedgerEntry, MetaCostEntry } from '#lib/domain/money/ports.ts';
import type { MemorySendTable } from '../sends/send-table.ts';
import type { MemoryCostLedger } from './cost-ledger.ts';

/**
 * The cost ledger as the statements read it, over what the in-memory status path wrote: the send table's ledger
 * (`<waba>|<day>|<client>|<did>|<market>|<category>`, priced in `currency`: the table keeps no currency or price)
 * and the charges of messages sent outside the service (a MemoryCostLedger). Meta's figures are not kept.
 */
export class TableCostLedger implements CostLedger {
  constructor(
    private readonly table: Pick<MemorySendTable, 'ledger'>,
    private readonly outside: MemoryCostLedger,
    private readonly currency = 'USD',
  ) {}

  /** Every charge, by WABA and client. */
  all(): { waba_id: string; client_id: number; entry: LedgerEntry }[] {
    const sent = Object.entries(this.table.ledger).map(([key, { messages, billable, micros }]) => {
      const [waba_id, day, client, did, market, category] = key.split('|');
      const entry: LedgerEntry = { day, did, market, category, currency: this.currency, messages, billable, micros };
      return { waba_id, client_id: Number(client), entry };
    });
    return [...sent, ...this.outside.entries.map((e) => structuredClone(e))];
  }

  async charges(wabaIds: string[], clientId: number, from: string, to: string) {
    return this.all()
      .filter((e) => wabaIds.includes(e.waba_id) && e.client_id === clientId && e.entry.day >= from && e.entry.day <= to)
      .map((e) => e.entry);
  }

  async wabaDay(wabaId: string, day: string) {
    return this.all()
      .filter((e) => e.waba_id === wabaId && e.entry.day === day)
      .map(({ client_id, entry }) => ({ client_id, entry }));
  }

  async metaCosts(): Promise<MetaCostEntry[]> {
    return [];
  }

  async putMetaCosts() {}
}
