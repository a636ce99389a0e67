import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import type { SendRecord, SendRecords } from '#lib/domain/sends/ports.ts';
import { NO_COUNTS } from '#lib/domain/sends/send-status.ts';
import { copy } from '../copy.ts';
import type { MemorySendTable } from './send-table.ts';

export class MemorySendRecords implements SendRecords {
  constructor(private readonly table: MemorySendTable) {}

  async begin(send: SendRecord) {
    if (this.table.failing) throw new Error('storage down');
    if (this.table.sends.has(send.send_id)) throw new Error('send exists');
    this.table.sends.set(send.send_id, {
      ...copy(send),
      counts: { ...NO_COUNTS, ...copy(send.counts) },
      errors: [],
    });
  }
  async settle(begun: SendRecord, status: 'queued' | 'abandoned') {
    const send = this.table.sends.get(begun.send_id);
    if (send?.status !== 'queuing') throw new Error('not queuing');
    send.status = status;
  }
  async get(sendId: string) {
    const send = copy(this.table.sends.get(sendId) ?? null);
    return send && { ...send, errors: send.errors?.filter((e) => e.count > 0) };
  }
  async list(clientId: number, page: { offset: number; size: number }) {
    const all = [...this.table.sends.values()]
      .filter((send) => send.client_id === clientId && send.status === 'queued')
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.send_id.localeCompare(a.send_id));
    return { sends: copy(all.slice(page.offset, page.offset + page.size)), total: all.length };
  }
  async cancel(sendId: string, at: string) {
    const send = this.table.sends.get(sendId);
    if (send && !send.cancelled_at) send.cancelled_at = at;
  }
  async pause(sendId: string, until: string, event: ServiceEvent) {
    const send = this.table.sends.get(sendId);
    if (!send || send.paused) return false;
    send.paused = { since: event.occurred_at, until };
    this.table.events.push(copy(event));
    return true;
  }
  async resume(sendId: string, event: ServiceEvent) {
    const send = this.table.sends.get(sendId);
    if (!send?.paused) return false;
    delete send.paused;
    this.table.events.push(copy(event));
    return true;
  }
  async markResent(sendId: string, resentAs: string) {
    const send = this.table.sends.get(sendId);
    if (send) send.resent_as = [...(send.resent_as ?? []), resentAs];
  }
  async isCancelled(sendId: string) {
    return this.table.sends.get(sendId)?.cancelled_at !== undefined;
  }
  async stop(sendId: string, reason: { code: string; title: string }) {
    const send = this.table.sends.get(sendId);
    if (send && !send.stopped) send.stopped = reason;
  }
}
