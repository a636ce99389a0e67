import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryState } from '#lib/domain/delivery.ts';
import type { PositionOutcome, RecordedOutcomes, SendCounts } from '#lib/domain/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SEND_COUNT_SHARDS, SEND_PARTS, SORT } from '../table.ts';
import { isConditionalCheckFailure, isTransactionConflict, type TransactItem } from '../transactions.ts';

/*
 * What the parts of the send store share (docs/data-model.md): where a send's items live, how outcomes and
 * delivery states are written in a few bytes, and the count shards every settlement and status batch adds to.
 */

/** Blocks and message states are kept this long after the send (then TTL removes them): longer than any send's TTL. */
export const RECIPIENT_DAYS = 35;
export const COUNT_FIELDS = ['duplicates_removed', 'expired', 'sent', 'failed', 'delivered', 'read', 'cancelled'] as const;
/** A count shard's error tally: `error:<code>` (the count) and `title:<code>`, one attribute each. */
export const ERROR = 'error:';
export const TITLE = 'title:';
/**
 * Items per status transaction (DynamoDB takes 100): the messages' states, each block's latest item
 * (its messages' states for the listing) and the count shard.
 */
export const ITEMS_PER_WRITE = 100;
/** Tries of one write against concurrent writes (a count shard held by another transaction, a state moved). */
export const TRIES = 8;

/** A position's partition: a multiplicative hash, so neighbouring blocks and messages land on different keys. */
export const partOf = (position: number) => (Math.imul(position + 1, 2654435761) >>> 0) % SEND_PARTS;
export const blockKey = (sendId: string, first: number) => ({ pk: keys.sendPart(sendId, partOf(first)), sk: keys.sendBlock(first) });
export const messageKey = (sendId: string, index: number) => ({ pk: keys.sendPart(sendId, partOf(index)), sk: keys.sendMessage(index) });
export const recipientsKey = (sendId: string, first: number) => ({
  pk: keys.sendPart(sendId, partOf(first)),
  sk: keys.sendRecipients(first),
});
export const latestKey = (sendId: string, first: number) => ({ pk: keys.sendPart(sendId, partOf(first)), sk: keys.sendLatest(first) });
/** A message's latest delivery state on its block's latest item, by its offset in the block. */
export const deliveryAttribute = (offset: number) => `d${offset}`;
/** A failure code's title on a block's latest item. */
export const titleAttribute = (code: string) => `t${code}`;

/**
 * A delivery state in a few bytes: `r` (read, so delivered), `v` (delivered) or `f<code>` (failed after
 * acceptance), then `@` and when it was applied, in seconds base 36.
 */
export function encodeLatest(state: DeliveryState, atMs: number) {
  const what = state.read ? 'r' : state.delivered ? 'v' : state.failed ? `f${state.failed.code}` : 's';
  return `${what}@${Math.floor(atMs / 1000).toString(36)}`;
}

export function decodeLatest(encoded: string, titles: (code: string) => string | undefined): { state: DeliveryState; at: string } {
  const [what, at] = encoded.split('@');
  const state: DeliveryState =
    what === 'r'
      ? { delivered: true, read: true }
      : what === 'v'
        ? { delivered: true }
        : what.startsWith('f')
          ? { failed: { code: what.slice(1), title: titles(what.slice(1)) ?? what.slice(1) } }
          : {};
  return { state, at: new Date(Number.parseInt(at, 36) * 1000).toISOString() };
}
export const expiry = (nowMs: number) => Math.ceil(nowMs / 1000) + RECIPIENT_DAYS * 86_400;

export type Tally = { add: Partial<SendCounts>; errors: Map<string, { title: string; count: number }> };

/** What outcomes add to a send's counts and errors (repeats were counted when the send was accepted). */
export function tally(outcomes: PositionOutcome[]): Tally {
  const add: Partial<SendCounts> = {};
  const errors = new Map<string, { title: string; count: number }>();
  for (const outcome of outcomes) {
    if (outcome.kind === 'duplicate') continue;
    if (outcome.kind === 'sent') add.sent = (add.sent ?? 0) + 1;
    else if (outcome.kind === 'expired') add.expired = (add.expired ?? 0) + 1;
    else if (outcome.kind === 'cancelled') add.cancelled = (add.cancelled ?? 0) + 1;
    else {
      add.failed = (add.failed ?? 0) + 1;
      const known = errors.get(outcome.code) ?? { title: outcome.title, count: 0 };
      known.count += 1;
      errors.set(outcome.code, known);
    }
  }
  return { add, errors };
}

/**
 * An addition to one of the send's count shards (each write picks one at random, so concurrent writers rarely
 * meet on one item). Counts and error codes are attribute names (`#a0`), never part of the expression text.
 */
export function countUpdate(tableName: string, sendId: string, { add, errors }: Tally): TransactItem {
  const adds: string[] = [];
  const sets: string[] = ['entity = :entity'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':entity': 'send_counts' };
  let n = 0;
  const addTo = (attribute: string, amount: number) => {
    names[`#a${n}`] = attribute;
    values[`:a${n}`] = amount;
    adds.push(`#a${n} :a${n}`);
    n++;
  };
  for (const [field, amount] of Object.entries(add)) if (amount) addTo(field, amount);
  for (const [code, { title, count }] of errors) {
    names[`#t${n}`] = `${TITLE}${code}`;
    values[`:t${n}`] = title;
    sets.push(`#t${n} = :t${n}`);
    addTo(`${ERROR}${code}`, count);
  }
  return {
    Update: {
      TableName: tableName,
      Key: { pk: keys.send(sendId), sk: keys.sendCounts(Math.floor(Math.random() * SEND_COUNT_SHARDS)) },
      UpdateExpression: `SET ${sets.join(', ')}${adds.length > 0 ? ` ADD ${adds.join(', ')}` : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** A block's outcomes as stored: one short string per position (`s<message id>`, `f<code>`, `e`, `c`, `d<first>`). */
export function encode(outcome: PositionOutcome) {
  if (outcome.kind === 'sent') return `s${outcome.message_id}`;
  if (outcome.kind === 'failed') return `f${outcome.code}`;
  if (outcome.kind === 'duplicate') return `d${outcome.of}`;
  return outcome.kind === 'cancelled' ? 'c' : 'e';
}

/** A stored outcome as the domain's (`titles` holds each failure code's title). */
export function decode(encoded: string, titles: Record<string, string>): PositionOutcome {
  const rest = encoded.slice(1);
  if (encoded[0] === 's') return { kind: 'sent', message_id: rest };
  if (encoded[0] === 'f') return { kind: 'failed', code: rest, title: titles[rest] ?? rest };
  if (encoded[0] === 'd') return { kind: 'duplicate', of: Number(rest) };
  return encoded === 'c' ? { kind: 'cancelled' } : { kind: 'expired' };
}

/** A claimed block's recorded answers (`got`, by offset; failures' titles in `got_titles`). */
export function recordedOf(item: Record<string, unknown>): Map<number, PositionOutcome> {
  const got = (item.got ?? {}) as Record<string, string>;
  const titles = (item.got_titles ?? {}) as Record<string, string>;
  return new Map(Object.entries(got).map(([offset, encoded]) => [Number(offset), decode(encoded, titles)]));
}

/** Recorded answers as the update's `:got` and `:titles` values. */
export function gotOf(outcomes: RecordedOutcomes) {
  const got: Record<string, string> = {};
  const titles: Record<string, string> = {};
  for (const [offset, outcome] of outcomes) {
    got[String(offset)] = encode(outcome);
    if (outcome.kind === 'failed') titles[outcome.code] = outcome.title;
  }
  return { ':got': got, ':titles': titles };
}

/** The message id a block's outcome holds for a position, when its message was sent. */
export const sentMessageOf = (encoded: unknown) => (typeof encoded === 'string' && encoded.startsWith('s') ? encoded.slice(1) : undefined);

/**
 * One transaction, its items made again for each try (a count update picks another shard), tried again with
 * backoff and jitter while it is cancelled only by concurrent transactions; any other failure is thrown.
 */
export async function transact(table: ServiceTable, items: () => TransactItem[]) {
  for (let attempt = 1; ; attempt++) {
    try {
      await table.client.send(new TransactWriteCommand({ TransactItems: items() }));
      return;
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= TRIES) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 10 * 2 ** attempt));
    }
  }
}

/** Sets an attribute of the send item unless it is set already (the first value stays). */
export async function setOnce(table: ServiceTable, sendId: string, attribute: 'cancelled_at' | 'released_at' | 'stopped', value: unknown) {
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { pk: keys.send(sendId), sk: SORT.send },
        UpdateExpression: 'SET #a = :v',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#a)',
        ExpressionAttributeNames: { '#a': attribute },
        ExpressionAttributeValues: { ':v': value },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailure(error)) throw error;
  }
}
