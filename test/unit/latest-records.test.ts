import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeRecord,
  deliveryAttribute,
  encodeLatest,
  latestFromOf,
  latestItemKey,
  latestKeysOf,
  latestStatesUpdate,
  layoutOf,
  mergedLatest,
  THIRD,
} from '#lib/adapters/dynamo/sends/latest-states.ts';
import { expiry } from '#lib/adapters/dynamo/sends/send-items.ts';
import { TTL_ATTRIBUTE } from '#lib/adapters/dynamo/table.ts';
import type { MessageState } from '#lib/domain/shared/message-status.ts';
import { itemBytes } from '../../local/request-meter.ts';

/**
 * A message's record on its block's latest item (issue 54: the status path's only record of a message's state):
 * every state the status path can reach comes back as written, with when it was applied and its TTL mark, and a
 * write is conditioned on the value read.
 */
const AT = Date.parse('2026-11-29T05:30:07Z');
const RETURNED = Date.parse('2026-12-05T01:00:00Z');
const pricing = fc.record({
  category: fc.constantFrom(
    'marketing',
    'utility',
    'authentication',
    'authentication_international',
    'service',
    'marketing_lite',
    'new_kind',
  ),
  type: fc.constantFrom('regular', 'free_customer_service', 'free_entry_point'),
  billable: fc.boolean(),
});
const username = fc.option(fc.stringMatching(/^[a-z0-9_.$@!]{1,20}$/), { nil: undefined });
/** The states statusChange produces: sent or held, delivered (and read) with or without a charge, or failed. */
const state: fc.Arbitrary<MessageState> = fc.oneof(
  fc.record({ held: fc.constant(true as const), username }),
  fc.record({ username }),
  fc
    .record({
      delivered: fc.constant(true as const),
      read: fc.option(fc.constant(true as const), { nil: undefined }),
      charge: fc.option(fc.record({ pricing, cost_micros: fc.nat(), price_micros: fc.option(fc.nat(), { nil: undefined }) }), {
        nil: undefined,
      }),
      username,
    })
    .map(({ charge, ...rest }) => ({ ...rest, ...charge })),
  fc.record({ failed: fc.record({ code: fc.stringMatching(/^[0-9]{1,6}$/), title: fc.constant('Title') }), username }),
);
const clean = (value: object) => JSON.parse(JSON.stringify(value));

describe('a message’s record on its block’s latest item', () => {
  it('reads back every reachable state as written, when it was applied, and its TTL mark', () => {
    fc.assert(
      fc.property(state, fc.boolean(), (written, marked) => {
        // Act
        const encoded = encodeLatest(written, AT, marked ? RETURNED : undefined);
        const read = decodeRecord(encoded, () => 'Title');
        // Assess
        expect(clean(read.delivery?.state ?? {})).toEqual(clean(written));
        expect(read.delivery?.at).toBe('2026-11-29T05:30:07.000Z');
        expect(read.returnedAt).toBe(marked ? '2026-12-05T01:00:00.000Z' : undefined);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a mark given before any status alone, with no state', () => {
    // Act
    const read = decodeRecord(encodeLatest(undefined, AT, RETURNED), () => undefined);
    // Assess
    expect(read).toEqual({ returnedAt: '2026-12-05T01:00:00.000Z' });
  });

  it('writes each record on condition it is still the value read, or none was', () => {
    // Prepare
    const records = new Map([
      [0, { state: { delivered: true } }],
      [7, { state: { delivered: true, read: true }, seen: 'v@abc' }],
    ]);
    // Act
    const { Update } = latestStatesUpdate('t', { pk: 'p', sk: 's' }, records, AT);
    // Assess
    expect(Update?.ConditionExpression).toBe('attribute_not_exists(#d0) AND #d1 = :s1');
    expect(Update?.ExpressionAttributeNames).toMatchObject({ '#d0': 'd0', '#d1': 'd7' });
    expect(Update?.ExpressionAttributeValues).toMatchObject({ ':s1': 'v@abc' });
  });

  it('keeps the conditions of a whole block of 90 under DynamoDB’s 4 KB expression limit', () => {
    // Prepare: the longest condition, none read before
    const records = new Map(Array.from({ length: 90 }, (_, offset) => [offset, { state: { delivered: true } }] as const));
    // Act
    const { Update } = latestStatesUpdate('t', { pk: 'p', sk: 's' }, new Map(records), AT);
    // Assess
    expect(Update?.ConditionExpression?.length).toBeLessThan(4096);
    expect(Update?.UpdateExpression?.length).toBeLessThan(4096);
  });
});

describe('a block’s latest items: a third of a block each since issue 54, the whole block for a send accepted before', () => {
  const SEND = 'a1b2c3d4-0000-4000-8000-000000000001';

  it('keeps a message of a send accepted now on its block’s third, and one accepted before on the block’s one item', () => {
    // Prepare: the send items as each layout writes them
    const thirds = layoutOf({ message_states: 'latest-thirds' });
    const block = layoutOf({ message_states: 'latest' });
    const messages = layoutOf({});
    // Act
    const items = [0, 29, 30, 59, 60, 89].map((offset) => latestItemKey(SEND, 90, latestFromOf(offset, thirds)).sk);
    // Assess: three items, the first third on the block's own key; the older layouts keep one item a block
    expect([thirds, block, messages]).toEqual(['thirds', 'block', 'messages']);
    expect(items).toEqual([
      'LATEST#000000090',
      'LATEST#000000090',
      'LATEST#000000090.30',
      'LATEST#000000090.30',
      'LATEST#000000090.60',
      'LATEST#000000090.60',
    ]);
    expect(new Set([0, 45, 89].map((offset) => latestFromOf(offset, block)))).toEqual(new Set([0]));
    expect(new Set([0, 45, 89].map((offset) => latestFromOf(offset, messages)))).toEqual(new Set([0]));
    expect(new Set(items.map((sk) => latestItemKey(SEND, 90, Number(sk.split('.')[1] ?? 0)).pk)).size).toBe(1);
  });

  it('reads a block’s every latest item, whatever its send’s layout, and merges them into one record', () => {
    // Prepare: a whole block's item (a send accepted before) and a block of thirds
    const whole = { d0: 'v@a', d45: 'r@b', d89: 'f131026@c', t131026: 'Undeliverable' };
    const thirds = [{ d0: 'v@a' }, { d45: 'r@b' }, { d89: 'f131026@c', t131026: 'Undeliverable' }];
    // Act
    const keysOfFull = latestKeysOf(SEND, 0, 90).map((key) => key.sk);
    const keysOfSmall = latestKeysOf(SEND, 900, 25).map((key) => key.sk);
    // Assess: three keys a block of 90, one a block of 30 or fewer; either layout reads as the same record
    expect(keysOfFull).toEqual(['LATEST#000000000', 'LATEST#000000000.30', 'LATEST#000000000.60']);
    expect(keysOfSmall).toEqual(['LATEST#000000900']);
    expect(mergedLatest([whole, undefined, undefined])).toEqual(mergedLatest(thirds));
    expect(THIRD * 3).toBe(90);
  });

  it('keeps a full third under 1 KB as DynamoDB sizes it: 30 messages read, priced and at a price list’s price', () => {
    // Prepare: the third with the longest offsets, each message read with its pricing, a cost and a price of $1.50 (more than any card's rate)
    const read: MessageState = {
      delivered: true,
      read: true,
      pricing: { category: 'authentication_international', type: 'regular', billable: true },
      cost_micros: 1_500_000,
      price_micros: 1_500_000,
    };
    const key = latestItemKey(SEND, 999_999_930, 60);
    const item: Record<string, unknown> = { ...key, [TTL_ATTRIBUTE]: expiry(AT) };
    for (let offset = 60; offset < 90; offset++) item[deliveryAttribute(offset)] = encodeLatest(read, AT);
    // Act
    const bytes = itemBytes(item);
    // Assess: under 1 KB, so a write of it bills 1 unit (2 in a transaction); the whole block's three times that
    expect(Object.keys(item)).toHaveLength(33);
    expect(bytes).toBeLessThan(1024);
    expect(bytes).toBeGreaterThan(700);
  });
});
