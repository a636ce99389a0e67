import type { MessageReply } from '#lib/domain/sends/figures.ts';
import type { ReplyRecord, Replies, SentMessage } from '#lib/domain/sends/performance/ports.ts';
import { REPLY_CANDIDATES } from '#lib/domain/sends/performance/ports.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet } from '../queries.ts';
import { keys, SORT, TTL_ATTRIBUTE } from '../table.ts';
import { cancellationCodes, type TransactItem } from '../transactions.ts';
import { decodeRecord, deliveryAttribute, latestKeysOf, mergedLatest } from './latest-states.ts';
import { decodeDeliveredAt, deliveredAttribute, templateDayUpdates, templatesOfSendItem } from './performance-items.ts';
import { type IndexedMessage, indexedMessages, personKeyOf } from './reply-index.ts';
import { blockKey, countUpdate, expiry, repliesKey, sentMessageOf, transact } from './send-items.ts';

/*
 * Replies to the sends' messages (decisions §33): found by person through the number's reply index, each
 * message's reply kept on its block's reply item (`REPLY#<first>`, one attribute a fact), written with the send's
 * count shard and the template's day item in one transaction, on condition the reply is still as read.
 */

/** A message's reply attributes on its block's reply item: replied, replied after, the button's label and payload. */
const REPLY_ATTRIBUTES = { replied: 'y', after: 'w', button: 'b', payload: 'k' } as const;
const attributeOf = (what: keyof typeof REPLY_ATTRIBUTES, offset: number) => `${REPLY_ATTRIBUTES[what]}${offset}`;
const seconds36 = (ms: number) => Math.floor(ms / 1000).toString(36);
const msOf36 = (encoded: unknown) => (typeof encoded === 'string' ? Number.parseInt(encoded, 36) * 1000 : undefined);

/** A message's reply as its block's reply item holds it (nothing where none came). */
export function replyOf(item: Record<string, unknown>, offset: number): { reply?: MessageReply } {
  const replied = msOf36(item[attributeOf('replied', offset)]);
  const after = msOf36(item[attributeOf('after', offset)]);
  const label = item[attributeOf('button', offset)];
  const payload = item[attributeOf('payload', offset)];
  const reply: MessageReply = {
    ...(replied !== undefined && { replied_at: replied }),
    ...(after !== undefined && { replied_after_at: after }),
    ...(typeof label === 'string' && { button: { text: label, ...(typeof payload === 'string' && { payload }) } }),
  };
  return Object.keys(reply).length > 0 ? { reply } : {};
}

export class DynamoReplies implements Replies {
  constructor(private readonly table: ServiceTable) {}

  /** The person's messages by the index (each key the person has), then their sends, blocks, states and replies in one read. */
  async sentTo(did: string, person: { phone?: string; user_id?: string }, sinceMs: number): Promise<SentMessage[]> {
    const since = new Date(Math.max(0, sinceMs)).toISOString();
    const personKeys = [personKeyOf({ phone: person.phone }), personKeyOf({ user_id: person.user_id })].filter((k) => k !== undefined);
    const found = (await Promise.all(personKeys.map((key) => indexedMessages(this.table, did, key, since, REPLY_CANDIDATES)))).flat();
    const indexed = [...new Map(found.map((m) => [`${m.send_id}|${m.index}`, m])).values()].slice(0, REPLY_CANDIDATES);
    if (indexed.length === 0) return [];
    const sendIds = [...new Set(indexed.map((m) => m.send_id))];
    const blocks = [...new Map(indexed.map((m) => [`${m.send_id}|${m.block}`, m])).values()];
    const read = await batchGet(
      this.table,
      [
        ...sendIds.map((id) => ({ pk: keys.send(id), sk: SORT.send })),
        ...blocks.flatMap((m) => [blockKey(m.send_id, m.block), ...latestKeysOf(m.send_id, m.block), repliesKey(m.send_id, m.block)]),
      ],
      true,
    );
    const byKey = new Map(read.map((item) => [`${item.pk}|${item.sk}`, item]));
    const at = (key: { pk: string; sk: string }) => byKey.get(`${key.pk}|${key.sk}`);
    return indexed.flatMap((m) => messageOf(m, at));
  }

  async record({ message, reply, figures, template }: ReplyRecord): Promise<boolean> {
    const offset = message.index - message.block;
    try {
      await transact(this.table, () => [
        replyUpdate(this.table.name, repliesKey(message.send_id, message.block), offset, message.reply, reply),
        countUpdate(this.table.name, message.send_id, { add: {}, errors: new Map(), figures }),
        ...templateDayUpdates(this.table.name, figures, () => template),
      ]);
      return true;
    } catch (error) {
      if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }
}

/** A message as the inbound path reads it, from its send's, block's, latest and reply items (none: not found). */
function messageOf(m: IndexedMessage, at: (key: { pk: string; sk: string }) => Record<string, unknown> | undefined): SentMessage[] {
  const send = at({ pk: keys.send(m.send_id), sk: SORT.send });
  const block = at(blockKey(m.send_id, m.block));
  if (!send) return [];
  const offset = m.index - m.block;
  const pending = block?.state === 'claimed' || block?.state === 'open';
  const answers = ((pending ? block?.got : block?.outcomes) ?? {}) as Record<number, unknown>;
  const messageId = sentMessageOf(answers[offset]);
  const variant = Number(block?.variant ?? 0);
  const template = templatesOfSendItem(send)[variant];
  if (!template) return [];
  // A block's latest items merged: a third each since issue 54, one for a send accepted before.
  const latest = mergedLatest(latestKeysOf(m.send_id, m.block).map(at));
  const state = latest[deliveryAttribute(offset)];
  const record = typeof state === 'string' ? decodeRecord(state, () => undefined).delivery : undefined;
  // Delivered: when, as kept or as its block's settlement says (decisions §33); else when its state was applied.
  const settledMs = typeof block?.settled_at === 'string' ? Date.parse(block.settled_at) : undefined;
  const deliveredAt = record?.state.delivered
    ? (decodeDeliveredAt(latest[deliveredAttribute(offset)], settledMs) ?? Date.parse(record.at))
    : undefined;
  return [
    {
      send_id: m.send_id,
      block: m.block,
      index: m.index,
      ...(messageId && { message_id: messageId }),
      variant,
      client_id: Number(send.client_id),
      template,
      ...(deliveredAt !== undefined && { delivered_at: deliveredAt }),
      reply: replyOf(at(repliesKey(m.send_id, m.block)) ?? {}, offset).reply ?? {},
    },
  ];
}

/** The reply's attributes on its block's reply item, each on condition it is still as read. */
function replyUpdate(
  tableName: string,
  Key: { pk: string; sk: string },
  offset: number,
  seen: MessageReply,
  reply: MessageReply,
): TransactItem {
  const names: Record<string, string> = { '#ttl': TTL_ATTRIBUTE };
  const values: Record<string, unknown> = { ':ttl': expiry(Date.now()) };
  const sets = ['#ttl = :ttl'];
  const removes: string[] = [];
  const conditions: string[] = [];
  const fields: [keyof typeof REPLY_ATTRIBUTES, string | undefined, string | undefined][] = [
    [
      'replied',
      seen.replied_at === undefined ? undefined : seconds36(seen.replied_at),
      reply.replied_at === undefined ? undefined : seconds36(reply.replied_at),
    ],
    [
      'after',
      seen.replied_after_at === undefined ? undefined : seconds36(seen.replied_after_at),
      reply.replied_after_at === undefined ? undefined : seconds36(reply.replied_after_at),
    ],
    ['button', seen.button?.text, reply.button?.text],
  ];
  for (const [what, before, now] of fields) {
    const name = `#${REPLY_ATTRIBUTES[what]}`;
    names[name] = attributeOf(what, offset);
    if (before === undefined) conditions.push(`attribute_not_exists(${name})`);
    else {
      values[`:${REPLY_ATTRIBUTES[what]}0`] = before;
      conditions.push(`${name} = :${REPLY_ATTRIBUTES[what]}0`);
    }
    if (now !== undefined && now !== before) {
      values[`:${REPLY_ATTRIBUTES[what]}1`] = now;
      sets.push(`${name} = :${REPLY_ATTRIBUTES[what]}1`);
    }
    // A replied_after a later quote replaced (lib/domain/sends/performance/replies.ts).
    if (now === undefined && before !== undefined) removes.push(name);
  }
  if (reply.button?.payload && !seen.button) {
    names['#k'] = attributeOf('payload', offset);
    values[':k'] = reply.button.payload.slice(0, 256);
    sets.push('#k = :k');
  }
  return {
    Update: {
      TableName: tableName,
      Key,
      UpdateExpression: `SET entity = :entity, ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...values, ':entity': 'send_replies' },
    },
  };
}
