import { templatesOfSendItem } from '#lib/adapters/dynamo/sends/performance-items.ts';
import { personKeyOf } from '#lib/adapters/dynamo/sends/reply-index.ts';
import { REPLY_CANDIDATES, type ReplyRecord, type Replies, type SentMessage } from '#lib/domain/sends/performance/ports.ts';
import { copy } from '../copy.ts';
import type { MemorySendTable } from './send-table.ts';

/** As the DynamoDB adapter: the number's index by person, newest send first; a reply written on condition it is as read. */
export class MemoryReplies implements Replies {
  constructor(private readonly table: MemorySendTable) {}
  /** Replies recorded, and records refused for a reply that moved meanwhile. */
  written = 0;
  refused = 0;

  async sentTo(did: string, person: { phone?: string; user_id?: string }, sinceMs: number): Promise<SentMessage[]> {
    const keys = [personKeyOf({ phone: person.phone }), personKeyOf({ user_id: person.user_id })].filter((k) => k !== undefined);
    const since = new Date(Math.max(0, sinceMs)).toISOString();
    const indexed = keys
      .flatMap((key) => this.table.replyIndex.get(`${did}|${key}`) ?? [])
      .filter((m) => m.at >= since)
      .sort((a, b) => b.at.localeCompare(a.at) || b.send_id.localeCompare(a.send_id));
    const unique = [...new Map(indexed.map((m) => [`${m.send_id}|${m.index}`, m])).values()].slice(0, REPLY_CANDIDATES);
    return unique.flatMap((m) => this.messageOf(m));
  }

  private messageOf(m: { send_id: string; block: number; index: number }): SentMessage[] {
    const send = this.table.sends.get(m.send_id);
    if (!send) return [];
    const block = this.table.blocks.get(`${m.send_id}|${m.block}`);
    const offset = m.index - m.block;
    const outcome = block?.state === 'settled' ? block.outcomes?.[offset] : block?.recorded.get(offset);
    const variant = this.table.blockVariants.get(`${m.send_id}|${m.block}`) ?? 0;
    const template = templatesOfSendItem(send as unknown as Record<string, unknown>)[variant];
    if (!template) return [];
    const deliveredAt = this.table.deliveredAt.get(`${m.send_id}|${m.index}`);
    return [
      {
        send_id: m.send_id,
        block: m.block,
        index: m.index,
        ...(outcome?.kind === 'sent' && { message_id: outcome.message_id }),
        variant,
        client_id: send.client_id,
        template,
        ...(deliveredAt !== undefined && { delivered_at: deliveredAt }),
        reply: copy(this.table.replies.get(`${m.send_id}|${m.index}`) ?? {}),
      },
    ];
  }

  async record({ message, reply, figures, template }: ReplyRecord) {
    const key = `${message.send_id}|${message.index}`;
    if (JSON.stringify(this.table.replies.get(key) ?? {}) !== JSON.stringify(message.reply)) {
      this.refused++;
      return false;
    }
    this.table.replies.set(key, copy(reply));
    this.table.addFigures(message.send_id, figures, () => template);
    this.written++;
    return true;
  }
}
