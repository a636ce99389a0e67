import type { MessageState, MessagePricing } from '#lib/domain/shared/message-status.ts';
import { TTL_ATTRIBUTE } from '../table.ts';
import type { TransactItem } from '../transactions.ts';
import { expiry } from './send-items.ts';

/*
 * Each message's latest delivery state on its block's latest item (docs/data-model.md), for the recipients'
 * listing: one short attribute a message, written by the status path and read by the listing.
 */

/** A message's latest delivery state on its block's latest item, by its offset in the block. */
export const deliveryAttribute = (offset: number) => `d${offset}`;
/** A failure code's title on a block's latest item. */
export const titleAttribute = (code: string) => `t${code}`;

/**
 * A delivery state in a few bytes: `r` (read, so delivered), `v` (delivered) or `f<code>` (failed after
 * acceptance), then `@` and when it was applied, in seconds base 36; then the pricing after `$`, and the
 * person's username after `|` (decisions §28).
 */
export function encodeLatest(state: MessageState, atMs: number) {
  const what = state.read ? 'r' : state.delivered ? 'v' : state.failed ? `f${state.failed.code}` : state.held ? 'h' : 's';
  const username = state.username ? `|${state.username.replace(/\|/g, '')}` : '';
  return `${what}@${Math.floor(atMs / 1000).toString(36)}${state.pricing ? `$${encodePricing(state.pricing, state.cost_micros ?? 0, state.price_micros)}` : ''}${username}`;
}

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

export function decodeLatest(whole: string, titles: (code: string) => string | undefined): { state: MessageState; at: string } {
  const [encoded, username] = whole.split('|');
  const [main, priced] = encoded.split('$');
  const [what, at] = main.split('@');
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
  return { state: known, at: new Date(Number.parseInt(at, 36) * 1000).toISOString() };
}
/** Messages' latest delivery states on their block's latest item, one attribute each, and failures' titles. */
export function latestStatesUpdate(
  tableName: string,
  Key: { pk: string; sk: string },
  states: Map<number, MessageState>,
  now: number,
): TransactItem {
  const names: Record<string, string> = { '#ttl': TTL_ATTRIBUTE };
  const values: Record<string, unknown> = { ':ttl': expiry(now) };
  const sets = [...states].map(([offset, state], n) => {
    names[`#d${n}`] = deliveryAttribute(offset);
    values[`:d${n}`] = encodeLatest(state, now);
    return `#d${n} = :d${n}`;
  });
  const failures = new Map([...states.values()].flatMap((state) => (state.failed ? [[state.failed.code, state.failed.title]] : [])));
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
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}
