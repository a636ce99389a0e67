import type { DeliveryResult, DeliveryStatuses, DeliveryUpdate } from '#lib/domain/sends/ports.ts';
import { copy } from '../copy.ts';
import type { MemorySendTable } from './send-table.ts';

type Charges = Record<string, { messages: number; billable: number; micros: number }>;

export class MemoryDeliveryStatuses implements DeliveryStatuses {
  constructor(private readonly table: MemorySendTable) {}

  async applyDeliveries(sendId: string, updates: DeliveryUpdate[], wabaId?: string): Promise<DeliveryResult[]> {
    const { table } = this;
    return updates.map((update) => {
      const block = table.blocks.get(`${sendId}|${update.block}`);
      if (!block) return 'unknown';
      if (block.state !== 'settled') return 'unsettled';
      const outcome = block.outcomes?.[update.index - update.block];
      // A launch whose answer never came may have gone: Meta's status (found by its reference) says it did.
      const unknown = outcome?.kind === 'failed' && outcome.code === 'outcome_unknown';
      if (!unknown && (outcome?.kind !== 'sent' || outcome.message_id !== update.messageId)) return 'unknown';
      const id = `${sendId}|${update.index}`;
      const accepted = unknown
        ? { failed: { code: outcome.code, title: outcome.title } }
        : outcome?.kind === 'sent' && outcome.held
          ? { held: true }
          : {};
      const moved = update.change(copy(table.messages.get(id) ?? accepted));
      if (!moved) return 'unchanged';
      table.messages.set(id, copy(moved.next));
      const list = table.recipientLists.get(`${sendId}|${update.block}`);
      list?.latest.set(update.index - update.block, { state: copy(moved.next), at: new Date().toISOString() });
      table.count(sendId, moved.counts, moved.errors);
      const clientId = table.sends.get(sendId)?.client_id;
      if (moved.settles && update.reserved && clientId !== undefined)
        table.budgets?.move(clientId, update.reserved.month, { released: update.reserved.micros });
      if (moved.charge && clientId !== undefined) {
        const month = new Date(update.chargedAt ?? Date.now()).toISOString().slice(0, 7);
        table.budgets?.move(clientId, month, { spent: moved.charge.budget_micros ?? moved.charge.micros });
      }
      if (moved.charge) {
        const { pricing, market, micros } = moved.charge;
        const add = (charges: Charges, key: string) => {
          charges[key] ??= { messages: 0, billable: 0, micros: 0 };
          const known = charges[key];
          known.messages += 1;
          known.billable += pricing.billable ? 1 : 0;
          known.micros += micros;
        };
        const send = table.sends.get(sendId)!;
        send.charges ??= {};
        add(send.charges, pricing.category);
        const day = new Date(update.chargedAt ?? Date.now()).toISOString().slice(0, 10);
        if (wabaId) add(table.ledger, `${wabaId}|${day}|${send.client_id}|${send.did}|${market}|${pricing.category}`);
        if (wabaId && update.tierVolume && micros > 0) {
          const key = `${wabaId}|${update.tierVolume.month}|${update.tierVolume.key}`;
          table.monthVolumes.set(key, (table.monthVolumes.get(key) ?? 0) + 1);
        }
      }
      return 'applied';
    });
  }
  async accountOf(sendId: string) {
    const send = this.table.sends.get(sendId);
    return send && { client_id: send.client_id, ...(send.reservation && { reservation: copy(send.reservation) }) };
  }
}
