import { describe, expect, it } from 'vitest';
import { META_COSTS_PART_BYTES, metaCostItems, metaCostsOf, olderParts, partsOf } from '#lib/adapters/dynamo/money/meta-cost-items.ts';
import type { MetaCostEntry } from '#lib/domain/money/ports.ts';

/** Meta's figures of a WABA's day as DynamoDB items (issue 51): parts under the 400 KB item size, read back whole. */
const entry = (i: number): MetaCostEntry => ({
  day: '2026-11-19',
  phone_number: String(5215550000 + i),
  country: 'MX',
  category: 'marketing',
  volume: i,
  micros: i * 1_000,
});
const DAY_OF = (n: number) => Array.from({ length: n }, (_, i) => entry(i));
const itemBytes = (item: unknown) => Buffer.byteLength(JSON.stringify(item));

describe('Meta’s figures of a day as items', () => {
  it('splits a large day into parts each under DynamoDB’s item size, and reads them back whole, in order', () => {
    // Prepare: a day of 8,000 points, well over 400 KB as one item
    const entries = DAY_OF(8_000);
    // Act
    const { head, parts } = metaCostItems('100200300', '2026-11-19', entries, '2026-11-20T06:00:00.000Z');
    // Assess
    expect(itemBytes(entries)).toBeGreaterThan(400 * 1024);
    expect(parts.length).toBeGreaterThan(1);
    expect(head.parts).toBe(parts.length + 1);
    // JSON is larger than DynamoDB's measure of the same item
    for (const item of [head, ...parts]) expect(itemBytes(item)).toBeLessThan(400 * 1024);
    for (const item of [head, ...parts]) expect(itemBytes(item.entries)).toBeLessThan(META_COSTS_PART_BYTES * 1.05);
    expect(metaCostsOf([head, ...parts].reverse())).toEqual(entries);
  });

  it('keeps a small day in one item, and an empty day as an empty one', () => {
    // Prepare / Act
    const small = metaCostItems('100200300', '2026-11-19', DAY_OF(3), 'r1');
    const empty = metaCostItems('100200300', '2026-11-19', [], 'r1');
    // Assess
    expect(small.parts).toEqual([]);
    expect(small.head).toMatchObject({ sk: 'DAY#2026-11-19', parts: 1, entries: DAY_OF(3) });
    expect(empty.head.entries).toEqual([]);
    expect(partsOf([entry(1)], 1)).toEqual([[entry(1)]]);
  });

  it('reads a day’s head with its own read’s parts only: an older read’s left-over parts never count', () => {
    // Prepare: a read in three parts, then a later read of the same day in one item (its head replaced the first's)
    const first = metaCostItems('100200300', '2026-11-19', DAY_OF(30), '2026-11-20T06:00:00.000Z', 400);
    const later = metaCostItems('100200300', '2026-11-19', DAY_OF(2), '2026-11-21T06:00:00.000Z', 400);
    const kept = [later.head, ...first.parts];
    // Act
    const read = metaCostsOf(kept);
    // Assess
    expect(first.parts.length).toBeGreaterThan(1);
    expect(read).toEqual(DAY_OF(2));
    expect(olderParts(kept, later.head.read_at)).toEqual(first.parts);
    expect(olderParts(kept, first.head.read_at)).toEqual([]);
  });

  it('reads a head of before the parts (no count) as one whole item', () => {
    // Prepare
    const legacy = {
      pk: 'META_COST#100200300',
      sk: 'DAY#2026-11-18',
      entity: 'meta_cost_day',
      day: '2026-11-18',
      entries: DAY_OF(2),
      read_at: 'r0',
    };
    // Act / Assess
    expect(metaCostsOf([legacy])).toEqual(DAY_OF(2));
  });
});
