import { describe, expect, it } from 'vitest';
import { itemBytes } from '../../../local/request-meter.ts';

/**
 * An item's size as DynamoDB counts it (developer guide, "Item sizes and formats"), as the benches bill writes:
 * names and values in UTF-8, numbers by their significant digits, lists and maps with their overhead.
 */
describe('an item’s size as DynamoDB counts it', () => {
  it('counts strings, numbers, booleans and nulls by their names and values', () => {
    // Prepare, Act, Assess: 'pk' + 'SEND#1', 'n' + 12345 (5 digits: 3 + 1), 'ok' + true, 'é' + 'é' (2 + 2)
    expect(itemBytes({ pk: 'SEND#1' })).toBe(8);
    expect(itemBytes({ n: 12_345 })).toBe(1 + 4);
    expect(itemBytes({ n: 1_000_000 })).toBe(1 + 2);
    expect(itemBytes({ n: 0.0012 })).toBe(1 + 2);
    expect(itemBytes({ ok: true, none: null })).toBe(2 + 1 + 4 + 1);
    expect(itemBytes({ é: 'é' })).toBe(4);
  });

  it('counts a list or map 3 bytes and 1 an element beside their contents, a map’s keys as names', () => {
    // Prepare, Act, Assess: [ 'ab', 'c' ] = 3 + (1 + 2) + (1 + 1); { x: 'yz' } = 3 + 1 + 1 + 2
    expect(itemBytes({ l: ['ab', 'c'] })).toBe(1 + 3 + 3 + 2);
    expect(itemBytes({ m: { x: 'yz' } })).toBe(1 + 3 + 1 + 1 + 2);
    expect(itemBytes({ s: new Set(['ab', 'cd']) })).toBe(1 + 4);
    expect(itemBytes({ e: [] })).toBe(1 + 3);
  });
});
