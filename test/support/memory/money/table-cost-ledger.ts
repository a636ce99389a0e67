import type { AdjustmentEntry, CostLedger, LedgerEntry, MetaCostEntry } from '#lib/domain/money/ports.ts';
import { monthOf } from '#lib/domain/shared/calendar.ts';
import type { MemorySendTable } from '../sends/send-table.ts';
import type { MemoryCostLedger } from './cost-ledger.ts';
import type { LedgerRead } from './late-charges.ts';

/**
 * The cost ledger as the statements read it, over what the in-memory status path wrote: the send table's ledger
 * (`<waba>|<day>|<client>|<did>|<market>|<category>`, priced in `currency`: the table keeps no currency or price),
 * its late charges by the month they are filed under (decisions §30), and the charges of messages sent outside the
 * service (a MemoryCostLedger). Meta's figures are not kept.
 */
export class TableCostLedger implements CostLedger {
  /** The reads of charges and adjustments, in order. */
  readonly reads: LedgerRead[] = [];

  constructor(
    private readonly table: Pick<MemorySendTable, 'ledger' | 'lateLedger'>,
    private readonly outside: MemoryCostLedger,
    private readonly currency = 'USD',
  ) {}

  /** Every charge, by WABA and client, each day's marked with its part applied after its month closed. */
  all(): { waba_id: string; client_id: number; entry: LedgerEntry }[] {
    const late = new Map<string, { messages: number; billable: number; micros: number }>();
    for (const [key, { messages, billable, micros }] of Object.entries(this.table.lateLedger)) {
      const day = key.slice(key.indexOf('|') + 1);
      const known = late.get(day) ?? { messages: 0, billable: 0, micros: 0 };
      late.set(day, { messages: known.messages + messages, billable: known.billable + billable, micros: known.micros + micros });
    }
    const sent = Object.entries(this.table.ledger).map(([key, { messages, billable, micros }]) => {
      const [waba_id, day, client, did, market, category] = key.split('|');
      const entry: LedgerEntry = { day, did, market, category, currency: this.currency, messages, billable, micros };
      if (late.has(key)) entry.late = late.get(key);
      return { waba_id, client_id: Number(client), entry };
    });
    return [...sent, ...this.outside.entries.map((e) => structuredClone(e))];
  }

  /** Every late charge as filed, by WABA and client. */
  filed(): { waba_id: string; client_id: number; entry: AdjustmentEntry }[] {
    const sent = Object.entries(this.table.lateLedger).map(([key, { messages, billable, micros }]) => {
      const [month, waba_id, day, client, did, market, category] = key.split('|');
      const entry: AdjustmentEntry = {
        month,
        of_month: monthOf(day),
        did,
        market,
        category,
        currency: this.currency,
        messages,
        billable,
        micros,
      };
      return { waba_id, client_id: Number(client), entry };
    });
    return [...sent, ...this.outside.filed.map((e) => structuredClone(e))];
  }

  async charges(wabaIds: string[], clientId: number, from: string, to: string) {
    this.reads.push({ method: 'charges', from, to });
    return this.all()
      .filter((e) => wabaIds.includes(e.waba_id) && e.client_id === clientId && e.entry.day >= from && e.entry.day <= to)
      .map((e) => e.entry);
  }

  async adjustments(wabaIds: string[], clientId: number, from: string, to: string) {
    this.reads.push({ method: 'adjustments', from, to });
    return this.filed()
      .filter((e) => wabaIds.includes(e.waba_id) && e.client_id === clientId && e.entry.month >= from && e.entry.month <= to)
      .map((e) => e.entry);
  }

  async wabaDay(wabaId: string, clientIds: number[], day: string) {
    return this.all()
      .filter((e) => e.waba_id === wabaId && clientIds.includes(e.client_id) && e.entry.day === day)
      .map(({ client_id, entry }) => ({ client_id, entry }));
  }

  async metaCosts(): Promise<MetaCostEntry[]> {
    return [];
  }

  async putMetaCosts() {}

  async metaShares() {
    return [];
  }

  async putMetaShares() {}
}
