import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { AcceptedBlock } from '#lib/domain/sends/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, REPLY_INDEX_BUCKETS, TTL_ATTRIBUTE } from '../table.ts';
import { expiry } from './send-items.ts';

/*
 * A number's sends' recipients by person (decisions §33, docs/data-model.md): how an inbound message finds the
 * messages it may answer without reading any send whole. Written once when a send is accepted, an item for each of
 * the number's REPLY_INDEX_BUCKETS buckets the send's people fall in (a send of 800 writes 32 items of 25 people
 * each, under 1 KB: 0.04 units a message), never on the status path.
 */

/** A person as the index keys them: `p<digits>` by phone number, else `u<BSUID>`. */
export const personKeyOf = (person: { phone?: string; user_id?: string }) =>
  person.phone ? `p${person.phone.replace(/\D/g, '')}` : person.user_id ? `u${person.user_id}` : undefined;

export function bucketOf(personKey: string) {
  let hash = 2166136261;
  for (const char of personKey) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash % REPLY_INDEX_BUCKETS;
}

/**
 * A send's index items: in each bucket, its people and each one's positions (`<block first>.<offset>`, a comma
 * between positions of a send that repeats a person). Repeats removed and suppressed people were never sent.
 */
export function replyIndexItems(sendId: string, did: string, blocks: AcceptedBlock[], at: string) {
  const buckets = new Map<number, Record<string, string>>();
  for (const { ref, to, user_ids, repeats, suppressed } of blocks) {
    const skipped = new Set(suppressed ?? []);
    to.forEach((phone, offset) => {
      const person = personKeyOf({ phone, user_id: user_ids?.[offset] });
      if (!person || repeats[offset] !== undefined || skipped.has(offset)) return;
      const bucket = bucketOf(person);
      const people = buckets.get(bucket) ?? {};
      const position = `${ref.first}.${offset}`;
      people[person] = people[person] ? `${people[person]},${position}` : position;
      buckets.set(bucket, people);
    });
  }
  return [...buckets].map(([bucket, people]) => ({
    pk: keys.replyIndex(did, bucket),
    sk: keys.replyIndexOrder(at, sendId),
    entity: 'reply_index',
    r: people,
    [TTL_ATTRIBUTE]: expiry(Date.parse(at)),
  }));
}

/** A person's place in a send: its block's first position, and its own. */
export interface IndexedMessage {
  send_id: string;
  block: number;
  index: number;
}

/** Pages of a bucket read at most, newest sends first, before a reply gives up looking further back. */
const PAGES = 4;
const PAGE_ITEMS = 200;

/**
 * A person's messages of a number's sends accepted since `sinceIso`, newest send first, at most `limit`: a Query of
 * the person's bucket, keeping only the sends that hold the person (a filter on the map's key).
 */
export async function indexedMessages(table: ServiceTable, did: string, personKey: string, sinceIso: string, limit: number) {
  const found: IndexedMessage[] = [];
  let start: Record<string, unknown> | undefined;
  for (let page = 0; page < PAGES && found.length < limit; page++) {
    const result: QueryCommandOutput = await table.client.send(
      new QueryCommand({
        TableName: table.name,
        KeyConditionExpression: 'pk = :pk AND sk >= :since',
        FilterExpression: 'attribute_exists(#r.#person)',
        ProjectionExpression: 'sk, #r.#person',
        ExpressionAttributeNames: { '#r': 'r', '#person': personKey },
        ExpressionAttributeValues: { ':pk': keys.replyIndex(did, bucketOf(personKey)), ':since': sinceIso },
        ScanIndexForward: false,
        Limit: PAGE_ITEMS,
        ...(start && { ExclusiveStartKey: start }),
      }),
    );
    for (const item of result.Items ?? []) {
      const sendId = String(item.sk).slice(String(item.sk).indexOf('#') + 1);
      const positions = String((item.r as Record<string, string>)[personKey]).split(',');
      for (const position of positions) {
        const [first, offset] = position.split('.').map(Number);
        found.push({ send_id: sendId, block: first, index: first + offset });
      }
    }
    start = result.LastEvaluatedKey;
    if (!start) break;
  }
  return found.slice(0, limit);
}
