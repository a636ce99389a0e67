import fc from 'fast-check';

/** A token's claims, and whether the service must refuse them with 401 (decisions §29). */
export interface HostileClaims {
  claims: Record<string, unknown>;
  refused: boolean;
}

/**
 * Values no id claim may carry (decisions §29): past 2^53 or not whole (as numbers and as text), not positive,
 * NaN-ish and huge strings, wrong types. As JSON holds no NaN, NaN is its text.
 */
export const notAnId = fc.constantFrom<unknown>(
  1e21,
  2 ** 53,
  2 ** 53 + 2,
  1e308,
  -1,
  0,
  1.5,
  -(2 ** 53),
  'NaN',
  'Infinity',
  '1e21',
  '1e+21',
  '9007199254740992',
  '9007199254740993',
  '-1',
  '0',
  '1.5',
  '07',
  '0x1F',
  '',
  'x'.repeat(10_000),
  '9'.repeat(400),
  true,
  {},
  [7],
);
const anId = fc.oneof(fc.constantFrom<unknown>(7, 8, 31, 32, '7', '31', 2 ** 53 - 1), fc.integer({ min: 1, max: 2 ** 31 }));
/** The text of a refused id as it stands in API Gateway's flattened list (no blanks, so it stays one word). */
const notAnIdWord = fc.constantFrom('1e+21', '9007199254740992', '0', '-1', '1.5', 'NaN', '07', 'x'.repeat(10_000));

/** A list claim of ids: a real array or API Gateway's flattened "[a b]", and whether one of its ids is refused. */
const idList: fc.Arbitrary<{ value: unknown; refused: boolean }> = fc.oneof(
  fc.array(anId, { maxLength: 3 }).map((ids) => ({ value: ids, refused: false })),
  fc
    .tuple(fc.array(anId, { maxLength: 3 }), notAnId, fc.nat(3))
    .map(([ids, bad, at]) => ({ value: [...ids.slice(0, at), bad, ...ids.slice(at)], refused: true })),
  fc.tuple(fc.array(fc.integer({ min: 1, max: 999 }), { maxLength: 3 }), notAnIdWord).map(([ids, bad]) => ({
    value: `[${[...ids, bad].join(' ')}]`,
    refused: true,
  })),
  fc.constantFrom<unknown>(31, {}, true).map((value) => ({ value, refused: true })),
);

/**
 * A token's claims with its client id, campaigns and channel ids each valid or not; `refused` when the service
 * must answer 401. The service reads no channel claim (decisions §1 names none), so `channels` only rides along:
 * if one is ever read, its refused values are here already.
 */
export const hostileClaims: fc.Arbitrary<HostileClaims> = fc
  .record({
    client: fc.oneof(
      anId.map((value) => ({ value, refused: false })),
      notAnId.map((value) => ({ value, refused: true })),
    ),
    campaigns: idList,
    channels: idList,
    bsp: fc.boolean(),
  })
  .map(({ client, campaigns, channels, bsp }) => ({
    claims: { client_id: client.value, campaigns: campaigns.value, channels: channels.value, permissions: bsp ? ['BSP_CN'] : [] },
    refused: client.refused || campaigns.refused,
  }));
