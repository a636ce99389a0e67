import type { RecipientParams } from '#lib/domain/sends/dispatch-job.ts';
import type { AcceptedBlock, PositionOutcome, RecipientBlockRef, RecipientLists, StoredRecipient } from '#lib/domain/sends/ports.ts';
import { LOST_OUTCOME } from '#lib/domain/sends/ports.ts';
import { putAll } from '../batch-write.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet } from '../queries.ts';
import { keys, TTL_ATTRIBUTE } from '../table.ts';
import { decodeLatest, deliveryAttribute, latestKeysOf, mergedLatest, titleAttribute } from './latest-states.ts';
import { blockKey, decode, expiry, recipientsKey, repliesKey } from './send-items.ts';
import { replyIndexItems } from './reply-index.ts';
import { replyOf } from './replies.ts';

/** Each block's recipients as accepted, read back with their outcomes and delivery states (decisions §22). */
export class DynamoRecipientLists implements RecipientLists {
  constructor(private readonly table: ServiceTable) {}

  /**
   * One item per block (spread over the send's parts), written in batches before the send is `queued`; with its
   * number, the index of its people for replies (decisions §33) in the same batches.
   */
  async recordRecipients(sendId: string, blocks: AcceptedBlock[], at: string, did?: string) {
    await putAll(this.table, [
      ...blocks.map(({ ref, to, user_ids, repeats, suppressed, params, ab }) => ({
        ...recipientsKey(sendId, ref.first),
        entity: 'send_recipients',
        first: ref.first,
        to: to.map((number) => number ?? ''),
        // Each recipient's BSUID (decisions §28), '' where it has none.
        ...(user_ids?.some((id) => id !== undefined) && { user_ids: user_ids.map((id) => id ?? '') }),
        repeats: Object.fromEntries(repeats.flatMap((of, offset) => (of === undefined ? [] : [[String(offset), of]]))),
        ...(suppressed?.length && { suppressed }),
        // The values a resend sends again (null where a position has none).
        ...(params?.some((p) => p !== undefined) && { params: params.map((p) => p ?? null) }),
        // An A/B send's (decisions §33): the block's variant (none yet for a test's rest), its recipients' places as asked.
        ...(ab && { ab }),
        recorded_at: at,
        [TTL_ATTRIBUTE]: expiry(Date.parse(at)),
      })),
      ...(did ? replyIndexItems(sendId, did, blocks, at) : []),
    ]);
  }

  /**
   * Each block's recipients, block and latest items (a third of the block each, or one for the whole block where
   * the send was accepted before them: the items merged), and each job's item (a job settled whole has no
   * blocks) and its replies, in one BatchGet: six items a block of 90 and one a job.
   */
  async recipients(sendId: string, blocks: RecipientBlockRef[]): Promise<StoredRecipient[]> {
    const read = await batchGet(this.table, recipientItemKeys(sendId, blocks));
    const found = new Map(read.map((item) => [`${item.pk}|${item.sk}`, item]));
    const at = (key: { pk: string; sk: string }) => found.get(`${key.pk}|${key.sk}`);
    const stored: StoredRecipient[] = [];
    for (const ref of blocks) {
      const list = at(recipientsKey(sendId, ref.first));
      if (!list) continue;
      const block = at(blockKey(sendId, ref.first));
      const latest = mergedLatest(latestKeysOf(sendId, ref.first, ref.size).map(at));
      const replies = at(repliesKey(sendId, ref.first)) ?? {};
      const job = at({ pk: keys.send(sendId), sk: keys.sendJob(ref.job) });
      const repeats = (list.repeats ?? {}) as Record<string, number>;
      const suppressed = new Set((list.suppressed ?? []) as number[]);
      const outcomes = (block?.outcomes ?? []) as string[];
      const titles = (block?.titles ?? {}) as Record<string, string>;
      (list.to as string[]).forEach((to, offset) => {
        const encoded = latest[deliveryAttribute(offset)];
        const delivery = typeof encoded === 'string' ? decodeLatest(encoded, (code) => latest[titleAttribute(code)] as string) : undefined;
        const repeat = repeats[String(offset)];
        let outcome: PositionOutcome | undefined;
        let settledAt: string | undefined;
        if (repeat !== undefined) outcome = { kind: 'duplicate', of: repeat };
        else if (suppressed.has(offset)) outcome = { kind: 'suppressed' };
        else if (block?.state === 'settled') outcome = decode(String(outcomes[offset]), titles);
        else if (block?.state === 'lost') outcome = LOST_OUTCOME;
        else if (!block && job?.state === 'settled')
          outcome =
            job.outcome === 'failed'
              ? { kind: 'failed', code: String(job.code ?? 'unknown'), title: String(job.title ?? job.code ?? 'unknown') }
              : { kind: job.outcome as 'expired' | 'cancelled' };
        if (outcome && repeat === undefined && !suppressed.has(offset)) settledAt = String((block ?? job)?.settled_at ?? list.recorded_at);
        const values = (list.params as (RecipientParams | null)[] | undefined)?.[offset];
        const userId = (list.user_ids as string[] | undefined)?.[offset];
        const ab = abOf(list.ab, offset);
        stored.push({
          index: ref.first + offset,
          to,
          ...(userId && { user_id: userId }),
          ...(values && { params: values }),
          ...(outcome && { outcome }),
          updated_at: delivery?.at ?? settledAt ?? String(list.recorded_at),
          ...(delivery && { delivery: delivery.state }),
          ...(ab && { ab }),
          ...replyOf(replies, offset),
        });
      });
    }
    return stored;
  }
}

/** A recipient's A/B part as its block's item keeps it (decisions §33): its variant, its place as asked. */
function abOf(stored: unknown, offset: number): StoredRecipient['ab'] {
  if (!stored) return undefined;
  const { variant, asked } = stored as { variant?: number; asked?: number[] };
  return { ...(variant !== undefined && { variant: Number(variant) }), ...(asked && { asked: Number(asked[offset]) }) };
}

/** The items that hold these blocks' recipients: each block's recipients, block, latest and replies items, and their jobs'. */
export function recipientItemKeys(sendId: string, blocks: RecipientBlockRef[]) {
  const jobs = [...new Set(blocks.map((b) => b.job))];
  return [
    ...blocks.flatMap((b) => [
      recipientsKey(sendId, b.first),
      blockKey(sendId, b.first),
      ...latestKeysOf(sendId, b.first, b.size),
      repliesKey(sendId, b.first),
    ]),
    ...jobs.map((job) => ({ pk: keys.send(sendId), sk: keys.sendJob(job) })),
  ];
}
