import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callerFromClaims } from '#lib/auth/caller.ts';
import { actingClient, templateListingClient } from '#lib/domain/shared/tenancy.ts';

describe('claims to caller', () => {
  it('reads real arrays from a verified token', () => {
    const caller = callerFromClaims({ sub: 'a', client_id: 7, permissions: ['BSP_CN'], campaigns: [1, 2], role: 'agent' });
    expect(caller).toEqual({ sub: 'a', clientId: 7, permissions: ['BSP_CN'], campaigns: [1, 2], role: 'agent', isBsp: true });
  });

  it('reads API Gateway’s flattened claims ("[a b]" strings, numeric string client_id)', () => {
    const caller = callerFromClaims({ sub: 'a', client_id: '7', permissions: '[BSP_CN other]', campaigns: '[31 32]' });
    expect(caller).toMatchObject({ clientId: 7, permissions: ['BSP_CN', 'other'], campaigns: [31, 32], isBsp: true });
  });

  it.each([{ client_id: 'x' }, { client_id: 0 }, {}, { client_id: 7, sub: '' }])('refuses claims %o', (claims) => {
    expect(callerFromClaims({ sub: 'a', ...claims })).toBeNull();
  });

  /** Ids no key can hold: past 2^53, not whole, not positive, not decimal digits (decisions §29). */
  const NOT_IDS: unknown[] = [
    1e21,
    2 ** 53,
    -1,
    0,
    1.5,
    Number.NaN,
    Infinity,
    '1e21',
    '9007199254740993',
    '-1',
    '0',
    '07',
    '1.5',
    'NaN',
    ' 7',
    '',
    'x'.repeat(10_000),
    true,
    null,
    {},
    [7],
  ];

  it.each(NOT_IDS)('refuses a client_id of %s', (clientId) => {
    // Act
    const caller = callerFromClaims({ sub: 'a', client_id: clientId, campaigns: [31] });
    // Assess
    expect(caller).toBeNull();
  });

  it.each(NOT_IDS.filter((id) => id !== null))('refuses a campaign id of %s in a list', (campaign) => {
    // Act
    const caller = callerFromClaims({ sub: 'a', client_id: 7, campaigns: [31, campaign] });
    // Assess
    expect(caller).toBeNull();
  });

  it.each(['[31 1e+21]', '[31 9007199254740992]', '[31 0]', '[31 -1]', '[31 1.5]', '[31 NaN]', '[31 07]', '[31,0]', '31 x'])(
    'refuses API Gateway’s flattened campaigns %s',
    (campaigns) => {
      // Act
      const caller = callerFromClaims({ sub: 'a', client_id: '7', campaigns });
      // Assess
      expect(caller).toBeNull();
    },
  );

  it('refuses a campaigns claim that is neither a list nor text', () => {
    expect(callerFromClaims({ sub: 'a', client_id: 7, campaigns: 31 })).toBeNull();
    expect(callerFromClaims({ sub: 'a', client_id: 7, campaigns: { 0: 31 } })).toBeNull();
  });

  it('accepts the largest safe id as a number and as its digits', () => {
    const caller = callerFromClaims({ sub: 'a', client_id: String(Number.MAX_SAFE_INTEGER), campaigns: [Number.MAX_SAFE_INTEGER] });
    expect(caller).toMatchObject({ clientId: Number.MAX_SAFE_INTEGER, campaigns: [Number.MAX_SAFE_INTEGER] });
  });

  it('accepts a client id and campaigns exactly when each is a safe positive integer (property)', () => {
    // Prepare: any JSON value, numbers at and past the edges, and digit strings
    const edge = fc.oneof(
      fc.constantFrom(0, -1, 1, 1.5, 2 ** 53, 2 ** 53 - 1, 1e21, Number.NaN, -0),
      fc.integer(),
      fc.double(),
      fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String),
      fc.string(),
      fc.jsonValue(),
    );
    const isId = (x: unknown) =>
      (typeof x === 'number' && Number.isSafeInteger(x) && x > 0) ||
      (typeof x === 'string' && /^[1-9][0-9]*$/.test(x) && Number.isSafeInteger(Number(x)));
    fc.assert(
      fc.property(edge, fc.array(edge, { maxLength: 4 }), (clientId, campaigns) => {
        // Act
        const caller = callerFromClaims({ sub: 'a', client_id: clientId, campaigns });
        // Assess
        const valid = isId(clientId) && campaigns.every(isId);
        expect(caller !== null).toBe(valid);
        if (caller) expect([caller.clientId, ...caller.campaigns].every((n) => Number.isSafeInteger(n) && n > 0)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('tenancy', () => {
  const agent = { sub: 'a', clientId: 7, permissions: [], campaigns: [31], isBsp: false };
  const bsp = { ...agent, permissions: ['BSP_CN'], campaigns: [], isBsp: true };

  it('defaults to the token client and lets BSP_CN act for others', () => {
    expect(actingClient(agent)).toBe(7);
    expect(actingClient(agent, 7)).toBe(7);
    expect(actingClient(bsp, 9)).toBe(9);
    expect(() => actingClient(agent, 9)).toThrow('BSP_CN permission required for cross-client access');
  });

  it('applies the template listing rules in order', () => {
    expect(() => templateListingClient(bsp, undefined)).toThrow('client_id is required');
    expect(() => templateListingClient({ ...agent, campaigns: [] }, undefined)).toThrow('agent without campaigns');
    expect(() => templateListingClient(agent, 8)).toThrow('BSP_CN permission required for cross-client access');
    expect(templateListingClient(bsp, 9)).toBe(9);
    expect(templateListingClient(agent, undefined)).toBe(7);
  });
});
