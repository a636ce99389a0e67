import type { SendCompletions } from '#lib/domain/sends/performance/ports.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import type { MemorySendTable } from './send-table.ts';

/** As the DynamoDB adapter: the send's `completed_at` set once, its event kept beside (the table's outbox). */
export class MemorySendCompletions implements SendCompletions {
  constructor(private readonly table: MemorySendTable) {}

  async complete(sendId: string, event: ServiceEvent) {
    const send = this.table.sends.get(sendId) as (Record<string, unknown> & { completed_at?: string }) | undefined;
    if (!send || send.completed_at) return false;
    send.completed_at = event.occurred_at;
    this.table.events.push(event);
    return true;
  }
}
