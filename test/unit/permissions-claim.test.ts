import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callerFromClaims, permissionsClaim } from '#lib/auth/caller.ts';

/**
 * A `permissions` claim counts only as a flat list of strings (decisions §32): a verified token's array, or API
 * Gateway's flattening of one ("[a b]"). Nothing else makes a caller BSP_CN.
 */
const callerWith = (permissions: unknown) => callerFromClaims({ sub: 'a', client_id: 7, campaigns: [31], permissions });

describe('a permissions claim (decisions §32)', () => {
  it.each<[string, unknown]>([
    ['a verified token’s list', ['BSP_CN']],
    ['a list with other permissions', ['reader', 'BSP_CN']],
    ['API Gateway’s flattened list', '[BSP_CN]'],
    ['API Gateway’s flattened list of two', '[reader BSP_CN]'],
  ])('counts BSP_CN in %s', (_, permissions) => {
    // Act
    const caller = callerWith(permissions);
    // Assess
    expect(caller?.isBsp).toBe(true);
    expect(caller?.permissions).toContain('BSP_CN');
  });

  it.each<[string, unknown]>([
    ['a list in a list', [['BSP_CN']]],
    ['a list in a list, flattened', '[[BSP_CN]]'],
    ['a list beside a nested one', ['reader', ['BSP_CN']]],
    ['a flattened list beside a nested one', '[reader [BSP_CN]]'],
    ['a list with a number in it', ['BSP_CN', 5]],
    ['a list with an object in it', ['BSP_CN', { BSP_CN: true }]],
    ['a list with null in it', ['BSP_CN', null]],
    ['a bare string', 'BSP_CN'],
    ['a bare string with other words', 'BSP_CN junk'],
    ['a bare string with commas', 'BSP_CN,reader'],
    ['JSON text in a string', '["BSP_CN"]'],
    ['an object', { 0: 'BSP_CN' }],
    ['a number', 1],
    ['true', true],
  ])('never counts BSP_CN in %s: the caller is an agent with no permissions', (_, permissions) => {
    // Act
    const caller = callerWith(permissions);
    // Assess
    expect(caller).toMatchObject({ clientId: 7, isBsp: false, permissions: [] });
  });

  it('grants BSP_CN exactly when the claim is a flat list of strings holding it, or its flattening (property)', () => {
    // Prepare: any JSON, lists of words and junk, nested lists, and their flattened text
    const word = fc.oneof(fc.constant('BSP_CN'), fc.stringMatching(/^[A-Za-z_]{1,8}$/));
    const item = fc.oneof(word, fc.jsonValue(), fc.array(word, { maxLength: 2 }));
    const claim = fc.oneof(
      fc.jsonValue(),
      fc.array(word, { maxLength: 4 }),
      fc.array(item, { maxLength: 4 }),
      fc
        .array(item, { maxLength: 4 })
        .map((items) => `[${items.map((i) => (Array.isArray(i) ? `[${i.join(' ')}]` : String(i))).join(' ')}]`),
      word.map((w) => `${w} ${w}`),
    );
    const isFlatWithBsp = (value: unknown) =>
      Array.isArray(value) ? value.every((i) => typeof i === 'string') && value.includes('BSP_CN') : false;
    const flattenedWithBsp = (value: unknown) =>
      typeof value === 'string' &&
      /^\s*\[.*\]\s*$/s.test(value) &&
      !/["{}]|\[.*\[|\].*\]/s.test(value) &&
      value
        .trim()
        .slice(1, -1)
        .split(/[\s,]+/)
        .includes('BSP_CN');
    fc.assert(
      fc.property(claim, (permissions) => {
        // Act
        const caller = callerWith(permissions);
        // Assess
        expect(caller?.isBsp).toBe(isFlatWithBsp(permissions) || flattenedWithBsp(permissions));
        expect(caller?.permissions.every((p) => typeof p === 'string')).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a missing claim as no permissions', () => {
    // Prepare / Act / Assess
    expect(permissionsClaim(undefined)).toEqual([]);
    expect(permissionsClaim('[]')).toEqual([]);
  });
});
