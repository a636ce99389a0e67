import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LedgerEntry } from '#lib/domain/money/ports.ts';
import type { ChargeTally } from '#lib/domain/money/status-billing.ts';
import { type MessageState, failureCount, type MessageCharge } from '#lib/domain/shared/message-status.ts';
import type { PositionOutcome, RecordedOutcomes, SendCounts } from '#lib/domain/sends/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, randomLedgerShard, SEND_COUNT_SHARDS, SEND_PARTS, SORT } from '../table.ts';
import { isConditionalCheckFailure, isTransactionConflict, type TransactItem } from '../transactions.ts';
import type { FigureAdd } from '#lib/domain/sends/figures.ts';
import { figureAttribute } from './performance-items.ts';

/*
 * What the parts of the send store share (docs/data-model.md): where a send's items live, how outcomes are
 * written in a few bytes, and the count shards every settlement and status batch adds to (messages' latest
 * delivery states: latest-states.ts).
 */

/** Blocks and message states are kept this long after the send (then TTL removes them): longer than any send's TTL. */
export const RECIPIENT_DAYS = 35;
export const COUNT_FIELDS = [
  'duplicates_removed',
  'suppressed',
  'held',
  'expired',
  'sent',
  'failed',
  'capped',
  'capped_by_rule',
  'delivered',
  'read',
  'cancelled',
] as const;
/** A count shard's error tally: `error:<code>` (the count) and `title:<code>`, one attribute each. */
export const ERROR = 'error:';
export const TITLE = 'title:';
/**
 * Items per status transaction (DynamoDB takes 100): each block's latest item (its messages' states), the count
 * shard, and the ledger, budget and tier items its charges add to.
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
/** What a block's messages' people answered (decisions §33), beside its latest items. */
export const repliesKey = (sendId: string, first: number) => ({ pk: keys.sendPart(sendId, partOf(first)), sk: keys.sendReplies(first) });
export const expiry = (nowMs: number) => Math.ceil(nowMs / 1000) + RECIPIENT_DAYS * 86_400;

export type Tally = {
  add: Partial<SendCounts>;
  errors: Map<string, { title: string; count: number }>;
  /** Charges by Meta's pricing category (decisions §24): messages, billable ones and micro-dollars. */
  costs?: Map<string, ChargeTally>;
  /** What it adds to the send's figures by variant and day (decisions §33): attributes of the same shard. */
  figures?: readonly FigureAdd[];
};
export type { ChargeTally };

/** A count shard's charges: `cost_n:`, `cost_b:`, `cost_a:` and `price_a:` and the category, one attribute each. */
export const COST = { messages: 'cost_n:', billable: 'cost_b:', micros: 'cost_a:', price: 'price_a:' } as const;

/** What outcomes add to a send's counts and errors (repeats and suppressed recipients were counted when the send was accepted). */
export function tally(outcomes: PositionOutcome[]): Tally {
  const add: Partial<SendCounts> = {};
  const errors = new Map<string, { title: string; count: number }>();
  for (const outcome of outcomes) {
    if (outcome.kind === 'duplicate' || outcome.kind === 'suppressed') continue;
    if (outcome.kind === 'sent') {
      add.sent = (add.sent ?? 0) + 1;
      if (outcome.held) add.held = (add.held ?? 0) + 1;
    } else if (outcome.kind === 'expired') add.expired = (add.expired ?? 0) + 1;
    else if (outcome.kind === 'cancelled') add.cancelled = (add.cancelled ?? 0) + 1;
    else {
      const field = failureCount(outcome.code);
      add[field] = (add[field] ?? 0) + 1;
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
export function countUpdate(tableName: string, sendId: string, { add, errors, costs, figures }: Tally): TransactItem {
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
  for (const [category, charge] of costs ?? []) {
    if (charge.messages) addTo(`${COST.messages}${category}`, charge.messages);
    if (charge.billable) addTo(`${COST.billable}${category}`, charge.billable);
    if (charge.micros) addTo(`${COST.micros}${category}`, charge.micros);
    if (charge.price) addTo(`${COST.price}${category}`, charge.price);
  }
  for (const figure of figures ?? []) addTo(figureAttribute(figure), figure.n);
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

/**
 * A block's outcomes as stored: one short string per position (`s<message id>`, `f<code>`, `e`, `c`, `d<first>`,
 * `x` suppressed; `m` before a sent outcome the Marketing Messages API carried).
 */
export function encode(outcome: PositionOutcome) {
  // A message the Marketing Messages API carried (decisions §28): `m` before its sent outcome.
  if (outcome.kind === 'sent') return `${outcome.api === 'mm' ? 'm' : ''}${outcome.held ? 'h' : 's'}${outcome.message_id}`;
  if (outcome.kind === 'failed') return `f${outcome.code}`;
  if (outcome.kind === 'duplicate') return `d${outcome.of}`;
  if (outcome.kind === 'suppressed') return 'x';
  return outcome.kind === 'cancelled' ? 'c' : 'e';
}

/** A stored outcome as the domain's (`titles` holds each failure code's title). */
export function decode(encoded: string, titles: Record<string, string>): PositionOutcome {
  if (encoded[0] === 'm') return { ...(decode(encoded.slice(1), titles) as Extract<PositionOutcome, { kind: 'sent' }>), api: 'mm' };
  const rest = encoded.slice(1);
  if (encoded[0] === 's') return { kind: 'sent', message_id: rest };
  if (encoded[0] === 'h') return { kind: 'sent', message_id: rest, held: true };
  if (encoded[0] === 'f') return { kind: 'failed', code: rest, title: titles[rest] ?? rest };
  if (encoded[0] === 'd') return { kind: 'duplicate', of: Number(rest) };
  if (encoded === 'x') return { kind: 'suppressed' };
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
export const sentMessageOf = (encoded: unknown): string | undefined => {
  if (typeof encoded !== 'string') return undefined;
  const own = encoded.startsWith('m') ? encoded.slice(1) : encoded;
  return own.startsWith('s') || own.startsWith('h') ? own.slice(1) : undefined;
};

/** The outcome whose launch had no answer in time (the dispatcher's own code): its message may have gone. */
const OUTCOME_UNKNOWN = 'foutcome_unknown';

/**
 * Whether a status of this message id is about the position with this outcome: the message it sent, or a
 * launch whose outcome was unknown, which the status (found by the reference the message carried) shows went.
 */
export const isOutcomeOf = (encoded: unknown, messageId: string) => sentMessageOf(encoded) === messageId || encoded === OUTCOME_UNKNOWN;

/**
 * A message's state before any status was applied: held when Meta held it at acceptance (`h<message id>`), and
 * failed as `outcome_unknown` when no answer came: a delivery then takes the failure back and charges it.
 */
export function acceptedStateOf(encoded: unknown, titles: Record<string, string> = {}): MessageState {
  if (encoded === OUTCOME_UNKNOWN) return { failed: { code: 'outcome_unknown', title: titles.outcome_unknown ?? 'outcome_unknown' } };
  return typeof encoded === 'string' && (encoded.startsWith('h') || encoded.startsWith('mh')) ? { held: true } : {};
}

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

/** A ledger charge's key under its client: the market, Meta's category, and the currency it was priced in. */
export const ledgerKey = (charge: MessageCharge) =>
  ledgerEntryKey({
    market: charge.market,
    category: charge.pricing.category,
    currency: charge.currency,
    ...(charge.currency_mismatch && { currency_mismatch: true }),
    ...(charge.price && { price_currency: charge.price.currency }),
  });
/** A ledger entry's key under its client, as `ledgerKey`. */
export const ledgerEntryKey = (
  entry: Pick<LedgerEntry, 'market' | 'category' | 'currency' | 'currency_mismatch' | 'price_currency' | 'origin'>,
) =>
  `${entry.market}|${entry.category}|${entry.currency}${entry.currency_mismatch ? MISMATCH : ''}${entry.price_currency === undefined ? '' : `${PRICED_IN}${entry.price_currency}`}${entry.origin ? `|${entry.origin}` : ''}`;
/** Then the currency of the client's price, where its price list was in force (decisions §27). */
export const PRICED_IN = '>';
/** Marks a currency priced on the base currency's card because the WABA's has none. */
export const MISMATCH = '!';

/**
 * A ledger item's attribute prefixes (messages, billable, cost, and the client's price where its price list was in
 * force, in the list's currency: decisions §27): then `<market>|<currency>` on an item of a category (issue 54), or
 * `<client>|<market>|<category>|<currency>` on an item written before. Items written before issue 41 hold `n|`,
 * `b|` and `a|` then `<client>|<did>|<market>|<category>`, in USD.
 */
export const LEDGER = { messages: 'N|', billable: 'B|', micros: 'A|', price: 'P|' } as const;
export const LEDGER_BEFORE_CURRENCIES = { messages: 'n|', billable: 'b|', micros: 'a|' } as const;
/** The late part of a day's figures (decisions §30), per key beside them: `L` then the figure's prefix. */
export const LEDGER_LATE = { messages: 'LN|', billable: 'LB|', micros: 'LA|', price: 'LP|' } as const;

/** A month's volume attribute prefix on a tier count shard's month item and Meta's tier item: then `<market>|<category>`. */
export const VOLUME = 'V|';

/** A month's tier-counted charges added to one of the portfolio's tier count shards' month item, in the status transaction. */
export function monthVolumeUpdate(tableName: string, portfolio: string, month: string, counts: Map<string, number>): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':entity': 'ledger_month' };
  const adds = [...counts].map(([key, count], n) => {
    names[`#v${n}`] = `${VOLUME}${key}`;
    values[`:v${n}`] = count;
    return `#v${n} :v${n}`;
  });
  return {
    Update: {
      TableName: tableName,
      Key: { pk: keys.tierCount(portfolio, randomLedgerShard()), sk: keys.ledgerMonth(month) },
      UpdateExpression: `SET entity = :entity ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}
