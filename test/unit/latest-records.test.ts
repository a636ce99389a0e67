import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeLatest, latestStatesUpdate } from '#lib/adapters/dynamo/sends/latest-states.ts';
import type { MessageState } from '#lib/domain/shared/message-status.ts';

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
