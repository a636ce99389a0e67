import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { GLOBAL_CATEGORIES, globalRecipients } from '../../bench/global-sender.ts';
import { hotItemRows, hotItemsTable, type ItemWrites, kindOf, kindsOf, PARTITION_WRITE_UNITS, writeUnits } from '../../bench/hot-items.ts';
import { GLOBAL_SENDER_TARGET } from '../../bench/send-path-report.ts';

/**
 * The arithmetic of the send-path bench's global sender and hot-item table (issue 54 items 2 and 4): units as
 * DynamoDB bills them, the kinds' heat at 1,000 messages a second, the recipients over every market; and the
 * figures BENCHMARKS.md states from them.
 */
const item = (pk: string, sk: string, bytes: number, writes: number, transactional: boolean): ItemWrites => ({
  pk,
  sk,
  bytes,
  writes,
  units: writes * writeUnits(bytes, transactional),
});

describe('the hot-item table (issue 54 item 4)', () => {
  it('bills a write its size in whole KB, at least 1, twice in a transaction', () => {
    // Prepare, Act, Assess
    expect([
      writeUnits(0, false),
      writeUnits(1024, false),
      writeUnits(1025, false),
      writeUnits(3_000, true),
      writeUnits(80_900, true),
    ]).toEqual([1, 1, 2, 6, 160]);
  });

  it('names a kind without its ids, dates and positions, a BSUID item one kind whatever its region', () => {
    // Prepare, Act, Assess
    expect(kindOf('SEND#a1b2c3d4-0000-4000-8000-000000000001#P05', 'BLOCK#000000180')).toBe('SEND#…#P… / BLOCK#…');
    expect(kindOf('IDENTITY#b#u:AR.1234567890', 'IDENTITY')).toBe(kindOf('IDENTITY#b#u:MX.987654', 'IDENTITY'));
    expect(kindOf('IDENTITY#b#p:5491123453100', 'IDENTITY')).toBe('IDENTITY#b#p:… / IDENTITY');
  });

  it('tallies each kind, its largest item, its hottest item and the hottest key holding it, every kind under the key counted', () => {
    // Prepare: two blocks' latest items and states under one send part, and two ledger shards of a day
    const items = [
      item('SEND#a1b2c3d4-0000-4000-8000-000000000001#P0', 'LATEST#0', 3_000, 10, true),
      item('SEND#a1b2c3d4-0000-4000-8000-000000000001#P0', 'LATEST#1', 2_000, 4, true),
      item('SEND#a1b2c3d4-0000-4000-8000-000000000001#P0', 'MSG#0#1', 200, 3, true),
      item('LEDGER#w9#C9#00', 'DAY#2026-11-29#9001', 80_000, 5, true),
      item('LEDGER#w9#C9#01', 'DAY#2026-11-29#9001', 81_000, 7, true),
    ];
    // Act
    const kinds = kindsOf(items);
    // Assess: the ledger kind first (most units), its hottest item 7 writes of 80 KB; the latest kind's key holds the states too
    expect(kinds.map((k) => [k.kind, k.items, k.writes, k.units])).toEqual([
      ['LEDGER#w…#C…#… / DAY#…#…', 2, 12, 5 * 158 + 7 * 160],
      ['SEND#…#P… / LATEST#…', 2, 14, 10 * 6 + 4 * 4],
      ['SEND#…#P… / MSG#…#…', 1, 3, 6],
    ]);
    expect(kinds[0].hottestItem).toEqual({ writes: 7, units: 1_120 });
    expect(kinds[0].largestBytes).toBe(81_000);
    expect(kinds[1].hottestKey.units).toBe(82);
  });

  it('scales each kind to 1,000 messages a second and says where a key is above 1,000 units a second', () => {
    // Prepare: the same items, written for 1,600 messages
    const kinds = kindsOf([
      item('LEDGER#w9#C9#00', 'DAY#2026-11-29#9001', 80_000, 5, true),
      item('LEDGER#w9#C9#01', 'DAY#2026-11-29#9001', 81_000, 7, true),
      item('PACING#p1', 'PACING', 300, 56, false),
    ]);
    // Act
    const rows = hotItemRows(kinds, 1_600);
    const table = hotItemsTable(kinds, 1_600);
    // Assess: the ledger's hottest key 1,120 units for 1,600 messages is 700 a second; pacing 56 writes is 35 a second
    expect(rows.map((r) => [r.kind, Math.round(r.keyUnitsPerSecond), Math.round(r.itemWritesPerSecond), r.overPartitionLimit])).toEqual([
      ['LEDGER#w…#C…#… / DAY#…#…', 700, 4, false],
      ['PACING#p… / PACING', 35, 35, false],
    ]);
    expect(hotItemRows(kinds, 1_000)[0].overPartitionLimit).toBe(true);
    expect(table).toHaveLength(2 + rows.length);
    expect(table[2]).toContain('| 700 |');
  });
});

describe('the global sender (issue 54 item 2)', () => {
  it('sends to new people in every market of the card in force, each placed in its market, in three categories', () => {
    // Prepare
    const day = '2026-11-29';
    // Act
    const recipients = globalRecipients(day, 3, 100);
    // Assess: 47 markets × 3, no number twice, every one in the market it was drawn for
    expect(Object.keys(rateCards.on(day).markets)).toHaveLength(47);
    expect(recipients).toHaveLength(47 * 3);
    expect(new Set(recipients.map((r) => r.to)).size).toBe(47 * 3);
    expect(recipients.filter((r) => rateCards.placeOf(r.to, day).market !== r.market)).toEqual([]);
    expect(GLOBAL_CATEGORIES).toEqual(['MARKETING', 'UTILITY', 'AUTHENTICATION']);
  });

  it('states in BENCHMARKS.md the target, the partition limit and the markets the code uses', () => {
    // Prepare
    const doc = readFileSync(new URL('../../BENCHMARKS.md', import.meta.url), 'utf8');
    // Act
    const heading = '## Hot items at 1,000 messages a second (issue 54)';
    const from = doc.indexOf(heading);
    const section = doc.slice(from, doc.indexOf('\n## ', from + 1));
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    // Assess: the section is there, each row's key figure flagged exactly where it is above the limit
    expect(doc).toContain(heading);
    expect(doc).toContain(`at most ${GLOBAL_SENDER_TARGET} write units a message`);
    expect(doc).toContain(`${Object.keys(rateCards.on('2026-11-29').markets).length} markets × 3 categories`);
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      const keyUnits = Number(row.split('|')[8].replace(/[^0-9]/g, ''));
      expect(row.includes('**ABOVE**')).toBe(keyUnits > PARTITION_WRITE_UNITS);
    }
  });
});
