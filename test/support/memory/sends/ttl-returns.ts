import type { TtlReturns, UnsettledMessage } from '#lib/domain/sends/dispatch/ports.ts';
import type { MemorySendTable } from './send-table.ts';

/** As the DynamoDB adapter: each message still unsettled and unmarked is marked, its part released with the mark. */
export class MemoryTtlReturns implements TtlReturns {
  constructor(private readonly table: MemorySendTable) {}

  async returnAtTtlEnd(sendId: string, month: string, messages: UnsettledMessage[], _now: string) {
    const { table } = this;
    const send = table.sends.get(sendId);
    if (!send) return 0;
    let returned = 0;
    for (const { index, micros } of messages) {
      const key = `${sendId}|${index}`;
      const state = table.messages.get(key);
      if (table.ttlReturned.has(key) || state?.delivered || state?.failed) continue;
      table.ttlReturned.add(key);
      table.budgets?.move(send.client_id, month, { released: micros });
      returned++;
    }
    return returned;
  }
}
