import type { AcceptedBlock, PositionOutcome, RecipientBlockRef, RecipientLists, StoredRecipient } from '#lib/domain/sends/ports.ts';
import { copy } from '../copy.ts';
import { personKeyOf } from '#lib/adapters/dynamo/sends/reply-index.ts';
import type { MemorySendTable } from './send-table.ts';

export class MemoryRecipientLists implements RecipientLists {
  constructor(private readonly table: MemorySendTable) {}

  async recordRecipients(sendId: string, blocks: AcceptedBlock[], at: string, did?: string) {
    if (this.table.failing) throw new Error('storage down');
    for (const block of blocks) this.table.recipientLists.set(`${sendId}|${block.ref.first}`, { ...copy(block), at, latest: new Map() });
    // Its people on its number for replies (decisions §33), as the reply index items keep them.
    for (const { ref, to, user_ids, repeats, suppressed } of did ? blocks : [])
      to.forEach((phone, offset) => {
        const person = personKeyOf({ phone, user_id: user_ids?.[offset] });
        if (!person || repeats[offset] !== undefined || suppressed?.includes(offset)) return;
        const key = `${did}|${person}`;
        this.table.replyIndex.set(key, [
          ...(this.table.replyIndex.get(key) ?? []),
          { send_id: sendId, block: ref.first, index: ref.first + offset, at },
        ]);
      });
  }
  async recipients(sendId: string, blocks: RecipientBlockRef[]): Promise<StoredRecipient[]> {
    return blocks.flatMap((ref) => {
      const list = this.table.recipientLists.get(`${sendId}|${ref.first}`);
      if (!list) return [];
      const block = this.table.blocks.get(`${sendId}|${ref.first}`);
      const job = this.table.jobOutcomes.get(`${sendId}|${ref.job}`);
      return list.to.map((to, offset): StoredRecipient => {
        const repeat = list.repeats[offset];
        const latest = list.latest.get(offset);
        let outcome: PositionOutcome | undefined;
        if (repeat !== undefined) outcome = { kind: 'duplicate', of: repeat };
        else if (list.suppressed?.includes(offset)) outcome = { kind: 'suppressed' };
        else if (block?.state === 'settled') outcome = block.outcomes?.[offset];
        else if (!block && job) outcome = job;
        const values = list.params?.[offset];
        const userId = list.user_ids?.[offset];
        const variant = list.ab?.variant;
        const asked = list.ab?.asked?.[offset];
        return {
          index: ref.first + offset,
          to: to ?? '',
          ...(userId && { user_id: userId }),
          ...(values && { params: copy(values) }),
          ...(outcome && { outcome: copy(outcome) }),
          updated_at: latest?.at ?? list.at,
          ...(latest && { delivery: copy(latest.state) }),
          ...(list.ab && { ab: { ...(variant !== undefined && { variant }), ...(asked !== undefined && { asked }) } }),
          ...(this.table.replies.has(`${sendId}|${ref.first + offset}`) && {
            reply: copy(this.table.replies.get(`${sendId}|${ref.first + offset}`)!),
          }),
        };
      });
    });
  }
}
