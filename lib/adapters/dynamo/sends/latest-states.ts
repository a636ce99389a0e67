import type { MessageState, MessagePricing } from '#lib/domain/shared/message-status.ts';
import { BLOCK } from '#lib/domain/sends/dispatch/tuning.ts';
import { keys, TTL_ATTRIBUTE } from '../table.ts';
import type { TransactItem } from '../transactions.ts';
import { expiry, partOf } from './send-items.ts';

/*
 * Each message's delivery state on its block's latest items (docs/data-model.md): one short attribute a message,
 * the status path's record of it (the value read is the condition of the next write: issue 54, no item a
 * message) and the recipients listing's.
 */

/**
 * Where a send keeps its messages' states, as its item says (`message_states`): since issue 54 on its blocks'
 * latest items alone, a third of a block each (`thirds`: a `read`, alone in its block when it comes, rewrites 30
 * states, under 1 KB, not 90); a send accepted before keeps its layout: the whole block on one latest item
 * (`block`), and before that with a message item beside it (`messages`, read for the TTL's marks alone).
 */
export type StatesLayout = 'messages' | 'block' | 'thirds';
export const MESSAGE_STATES = { block: 'latest', thirds: 'latest-thirds' } as const;
export const layoutOf = (sendItem: Record<string, unknown>): StatesLayout =>
  sendItem.message_states === MESSAGE_STATES.thirds ? 'thirds' : sendItem.message_states === MESSAGE_STATES.block ? 'block' : 'messages';

/** Positions a latest item holds in the `thirds` layout. */
export const THIRD = BLOCK / 3;

/** The first offset of the latest item that holds a block's `offset`: its third's, or 0 where one item holds the block. */
export const latestFromOf = (offset: number, layout: StatesLayout) => (layout === 'thirds' ? offset - (offset % THIRD) : 0);

/** A block's latest item from `from` (the first third's key is the block's, where a send accepted before keeps the whole block). */
export const latestItemKey = (sendId: string, first: number, from = 0) => ({
  pk: keys.sendPart(sendId, partOf(first)),
  sk: keys.sendLatest(first, from),
});

/** Every latest item a block of `size` positions may have, whatever its send's layout: what a reader merges. */
export const latestKeysOf = (sendId: string, first: number, size = BLOCK) =>
  Array.from({ length: Math.max(1, Math.ceil(Math.min(size, BLOCK) / THIRD)) }, (_, third) => latestItemKey(sendId, first, third * THIRD));

/** A block's latest items as one record: each message's attribute is on one of them (a failure's title on any). */
export const mergedLatest = (items: (Record<string, unknown> | undefined)[]): Record<string, unknown> =>
  Object.assign({}, ...items.filter((item) => item !== undefined));

/** A message's latest delivery state on its block's latest item, by its offset in the block. */
export const deliveryAttribute = (offset: number) => `d${offset}`;
/** A failure code's title on a block's latest item. */
export const titleAttribute = (code: string) => `t${code}`;

/**
 * A delivery state in a few bytes: `r` (read, so delivered), `v` (delivered), `f<code>` (failed after
 * acceptance), `h` (held) or `s` (sent), then `@` and when it was applied, in seconds base 36; then `!` and when
 * its reserved part came back at its TTL's end (decisions §30), the pricing after `$`, and the person's username
 * after `|` (decisions §28). A message given back before any status has the mark alone (`!<seconds>`).
 */
export function encodeLatest(state: MessageState | undefined, atMs: number, returnedAtMs?: number) {
  const mark = returnedAtMs === undefined ? '' : `!${seconds36(returnedAtMs)}`;
  if (!state) return mark;
  const what = state.read ? 'r' : state.delivered ? 'v' : state.failed ? `f${state.failed.code}` : state.held ? 'h' : 's';
  const username = state.username ? `|${state.username.replace(/\|/g, '')}` : '';
  return `${what}@${seconds36(atMs)}${mark}${state.pricing ? `$${encodePricing(state.pricing, state.cost_micros ?? 0, state.price_micros)}` : ''}${username}`;
}

const seconds36 = (ms: number) => Math.floor(ms / 1000).toString(36);
const isoOf36 = (encoded: string) => new Date(Number.parseInt(encoded, 36) * 1000).toISOString();

/** Meta's pricing categories and types in a letter each, so a block's latest item stays small. */
const CATEGORY_LETTERS: Record<string, string> = {
  marketing: 'm',
  utility: 'u',
  authentication: 'a',
  authentication_international: 'i',
  'authentication-international': 'i',
  service: 's',
  marketing_lite: 'l',
  referral_conversion: 'c',
};
const TYPE_LETTERS: Record<string, string> = { regular: 'r', free_customer_service: 'f', free_entry_point: 'e' };
const letterOf = (letters: Record<string, string>, name: string) => letters[name] ?? `~${name.replace(/[~.$@]/g, '')}~`;
const nameOf = (letters: Record<string, string>, code: string) =>
  code.startsWith('~') ? code.slice(1, -1) : (Object.entries(letters).find(([, l]) => l === code)?.[0] ?? code);

/**
 * `<category><type><billable 1|0>.<cost micro-units base 36>[.<price micro-units base 36>]`, each name a letter
 * (or `~name~` when Meta adds one); the price where the client's price list was in force (decisions §27).
 */
function encodePricing(pricing: MessagePricing, micros: number, priceMicros?: number) {
  const price = priceMicros === undefined ? '' : `.${priceMicros.toString(36)}`;
  return `${letterOf(CATEGORY_LETTERS, pricing.category)}${letterOf(TYPE_LETTERS, pricing.type)}${pricing.billable ? 1 : 0}.${micros.toString(36)}${price}`;
}

function decodePricing(encoded: string): { pricing: MessagePricing; cost_micros: number; price_micros?: number } {
  const [head, micros, price] = encoded.split('.');
  const parts = head.match(/~[^~]*~|[^~]/g) ?? [];
  return {
    pricing: { category: nameOf(CATEGORY_LETTERS, parts[0] ?? ''), type: nameOf(TYPE_LETTERS, parts[1] ?? ''), billable: parts[2] === '1' },
    cost_micros: Number.parseInt(micros ?? '0', 36) || 0,
    ...(price !== undefined && { price_micros: Number.parseInt(price, 36) || 0 }),
  };
}

/** A message's record on its block's latest item: its state and when it was applied (none before a status), and its mark. */
export interface LatestRecord {
  delivery?: { state: MessageState; at: string };
  /** When its reserved part came back at its TTL's end (decisions §30). */
  returnedAt?: string;
}

export function decodeRecord(whole: string, titles: (code: string) => string | undefined): LatestRecord {
  const [encoded, username] = whole.split('|');
  const [main, priced] = encoded.split('$');
  const [core, mark] = main.split('!');
  const returned = mark ? { returnedAt: isoOf36(mark) } : {};
  if (!core) return returned;
  const [what, at] = core.split('@');
  const state: MessageState =
    what === 'r'
      ? { delivered: true, read: true }
      : what === 'v'
        ? { delivered: true }
        : what.startsWith('f')
          ? { failed: { code: what.slice(1), title: titles(what.slice(1)) ?? what.slice(1) } }
          : what === 'h'
            ? { held: true }
            : {};
  const known = { ...state, ...(priced && decodePricing(priced)), ...(username && { username }) };
  return { delivery: { state: known, at: isoOf36(at) }, ...returned };
}

/** A message's latest delivery state for the listing: none before a status. */
export const decodeLatest = (whole: string, titles: (code: string) => string | undefined) => decodeRecord(whole, titles).delivery;

/** A message's new record on its block's latest item: written on condition its record is still `seen` (undefined: none). */
export interface LatestWrite {
  state: MessageState;
  seen?: string;
  returnedAt?: string;
}

/**
 * Messages' records on their block's latest item, one attribute each, each on condition it is still the value
 * read (a concurrent batch that moved one cancels the transaction, which reads again), and failures' titles.
 */
export function latestStatesUpdate(
  tableName: string,
  Key: { pk: string; sk: string },
  records: Map<number, LatestWrite>,
  now: number,
): TransactItem {
  const names: Record<string, string> = { '#ttl': TTL_ATTRIBUTE };
  const values: Record<string, unknown> = { ':ttl': expiry(now) };
  const conditions: string[] = [];
  const sets = [...records].map(([offset, { state, seen, returnedAt }], n) => {
    names[`#d${n}`] = deliveryAttribute(offset);
    values[`:d${n}`] = encodeLatest(state, now, returnedAt === undefined ? undefined : Date.parse(returnedAt));
    if (seen === undefined) conditions.push(`attribute_not_exists(#d${n})`);
    else {
      values[`:s${n}`] = seen;
      conditions.push(`#d${n} = :s${n}`);
    }
    return `#d${n} = :d${n}`;
  });
  const failures = new Map([...records.values()].flatMap(({ state }) => (state.failed ? [[state.failed.code, state.failed.title]] : [])));
  [...failures].forEach(([code, title], n) => {
    names[`#t${n}`] = titleAttribute(code);
    values[`:t${n}`] = title;
    sets.push(`#t${n} = :t${n}`);
  });
  return {
    Update: {
      TableName: tableName,
      Key,
      UpdateExpression: `SET ${sets.join(', ')}, #ttl = :ttl`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}
