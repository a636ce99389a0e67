import type { MessageState } from '#lib/domain/shared/message-status.ts';
import { type BatchMessage, billStatusBatch, type StatusBatchBill } from '#lib/domain/money/status-billing.ts';
import type { StatusResult, MessageStatuses, StatusUpdate } from '#lib/domain/sends/ports.ts';
import type { LedgerEntry } from '#lib/domain/money/ports.ts';
import { lateFiledUnder } from '#lib/domain/money/statements/months.ts';
import { copy } from '../copy.ts';
import { statusFigures } from '#lib/domain/sends/figures.ts';
import { templateOfVariant, templatesOfSendItem } from '#lib/adapters/dynamo/sends/performance-items.ts';
import type { MemorySendTable } from './send-table.ts';

/** A message of the batch with the places of its reports among the batch's, and its block. */
type PlacedMessage = BatchMessage & { block: number; places: number[]; variant: number };

export class MemoryMessageStatuses implements MessageStatuses {
  constructor(private readonly table: MemorySendTable) {}

  /** As the DynamoDB adapter: the reports its blocks know are billed together (billStatusBatch), then written. */
  async applyStatuses(sendId: string, updates: StatusUpdate[], wabaId?: string): Promise<StatusResult[]> {
    const { table } = this;
    const results: StatusResult[] = new Array(updates.length);
    const messages = new Map<number, PlacedMessage>();
    for (const [i, update] of updates.entries()) {
      const accepted = this.acceptedState(sendId, update);
      if (typeof accepted === 'string') results[i] = accepted;
      else {
        const state = copy(table.messages.get(`${sendId}|${update.index}`) ?? accepted);
        const reservationReturned = table.ttlReturned.has(`${sendId}|${update.index}`);
        const message = messages.get(update.index) ?? {
          index: update.index,
          state,
          statuses: [],
          block: update.block,
          places: [],
          reservationReturned,
          variant: table.blockVariants.get(`${sendId}|${update.block}`) ?? 0,
        };
        message.statuses.push(update);
        message.places.push(i);
        messages.set(update.index, message);
      }
    }
    const send = table.sends.get(sendId);
    const batch = [...messages.values()];
    const bill = billStatusBatch({ messages: batch, send, wabaId, now: Date.now() });
    for (const [k, { applied }] of bill.messages.entries())
      for (const [j, moved] of applied.entries()) results[batch[k].places[j]] = moved ? 'applied' : 'unchanged';
    const zone = updates.find((update) => update.statementZone)?.statementZone;
    if (bill.messages.some(({ moved }) => moved)) {
      this.write(sendId, batch, bill, wabaId, zone);
      this.figure(sendId, batch, wabaId);
    }
    return results;
  }

  async accountOf(sendId: string) {
    const send = this.table.sends.get(sendId);
    return send && { client_id: send.client_id, ...(send.reservation && { reservation: copy(send.reservation) }) };
  }

  /**
   * The state a report's message was accepted in, or why the report is not applied: as the DynamoDB adapter, from
   * a settled block's outcomes or what a claimed or handed-back one recorded (decisions §30).
   */
  private acceptedState(sendId: string, update: StatusUpdate): MessageState | 'unknown' | 'unsettled' {
    const block = this.table.blocks.get(`${sendId}|${update.block}`);
    if (!block) return 'unknown';
    const offset = update.index - update.block;
    const outcome = block.state === 'settled' ? block.outcomes?.[offset] : block.recorded.get(offset);
    if (block.state !== 'settled' && !outcome) return 'unsettled';
    // A launch whose answer never came may have gone: Meta's status (found by its reference) says it did.
    if (outcome?.kind === 'failed' && outcome.code === 'outcome_unknown') return { failed: { code: outcome.code, title: outcome.title } };
    if (outcome?.kind !== 'sent' || outcome.message_id !== update.messageId) return 'unknown';
    return outcome.held ? { held: true } : {};
  }

  /** What the batch moved and bills, as the table's one transaction writes it: states, latest states, counts. */
  private write(sendId: string, batch: PlacedMessage[], bill: StatusBatchBill, wabaId?: string, zone?: string) {
    const { table } = this;
    for (const [k, { index, moved, state }] of bill.messages.entries()) {
      if (!moved) continue;
      table.messages.set(`${sendId}|${index}`, copy(state));
      const { block } = batch[k];
      table.recipientLists.get(`${sendId}|${block}`)?.latest.set(index - block, { state: copy(state), at: new Date().toISOString() });
    }
    table.count(
      sendId,
      bill.counts,
      [...bill.errors].map(([code, { title, count }]) => ({ code, title, count })),
    );
    this.charge(sendId, bill, wabaId, zone);
  }

  /** What the batch adds to the send's figures and its templates' days, and its messages' delivery times (§33). */
  private figure(sendId: string, batch: PlacedMessage[], wabaId?: string) {
    const { table } = this;
    const { tally, deliveredAt } = statusFigures(batch, Date.now());
    const send = table.sends.get(sendId)!;
    const templates = templatesOfSendItem(send as unknown as Record<string, unknown>);
    const owner = { client_id: send.client_id, templates, currency: send.currency, price_currency: send.price_list?.currency };
    table.addFigures(sendId, tally.adds, (v) => (wabaId ? templateOfVariant(owner, wabaId, v) : undefined));
    for (const [index, at] of deliveredAt) table.deliveredAt.set(`${sendId}|${index}`, at);
  }

  /** The batch's charges: on the send by category, on the client's ledger and budget, on the portfolio's tiers. */
  private charge(sendId: string, bill: StatusBatchBill, wabaId?: string, zone?: string) {
    const { table } = this;
    const send = table.sends.get(sendId)!;
    for (const [category, tally] of bill.byCategory) {
      send.charges ??= {};
      send.charges[category] ??= { messages: 0, billable: 0, micros: 0 };
      const known = send.charges[category];
      known.messages += tally.messages;
      known.billable += tally.billable;
      known.micros += tally.micros;
      if (tally.price !== undefined) known.price_micros = (known.price_micros ?? 0) + tally.price;
    }
    for (const entry of bill.ledger) {
      const key = `${wabaId}|${entry.day}|${send.client_id}|${entry.did}|${entry.market}|${entry.category}`;
      addCharge(table.ledger, key, entry);
      // As the DynamoDB adapter's ledgerWrites: a charge whose month closed is also filed under the month open now.
      const filedUnder = lateFiledUnder(entry.day, table.clock(), zone);
      if (filedUnder) addCharge(table.lateLedger, `${filedUnder}|${key}`, entry);
    }
    const portfolio = bill.tierPortfolio ?? wabaId;
    for (const [month, counts] of bill.tiers)
      for (const [key, count] of counts) {
        const volume = `${portfolio}|${month}|${key}`;
        table.monthVolumes.set(volume, (table.monthVolumes.get(volume) ?? 0) + count);
      }
    for (const [month, move] of bill.budget) table.budgets?.move(send.client_id, month, move);
  }
}

/** A ledger entry's charges added under its key. */
function addCharge(ledger: MemorySendTable['ledger'], key: string, entry: LedgerEntry) {
  ledger[key] ??= { messages: 0, billable: 0, micros: 0 };
  ledger[key].messages += entry.messages;
  ledger[key].billable += entry.billable;
  ledger[key].micros += entry.micros;
}
