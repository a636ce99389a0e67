import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getExampleNumber } from 'libphonenumber-js';
import examples from 'libphonenumber-js/mobile/examples';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';

/**
 * A global sender (issue 54 item 2): one client whose recipients span every market of the card in force and its
 * templates' three categories, late in a busy day. Its recipients, and the day's ledger and tier items brought to
 * the size a busy day gives them before the run is measured.
 */

/** The categories a global sender's templates are in: one template each. */
export const GLOBAL_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;

/** A market's region whose example mobile number (libphonenumber-js) the card places in that market. */
function exampleOf(market: string, day: string): string {
  const card = rateCards.on(day);
  for (const [region, named] of Object.entries(card.regions.regions)) {
    if (named !== market) continue;
    const example = getExampleNumber(region as never, examples);
    const digits = example?.number.slice(1);
    if (digits && rateCards.placeOf(digits, day).market === market) return digits;
  }
  throw new Error(`no example number places in ${market}`);
}

/**
 * `perMarket` new people in every market of the card in force on `day`, market by market: each an example mobile
 * number of a region of the market with its last four digits counted from `from` (one the card places elsewhere
 * is skipped, so every recipient is in its market).
 */
export function globalRecipients(day: string, perMarket: number, from: number): { market: string; to: string }[] {
  const recipients: { market: string; to: string }[] = [];
  for (const market of Object.keys(rateCards.on(day).markets)) {
    const stem = exampleOf(market, day).slice(0, -4);
    let found = 0;
    for (let n = from; found < perMarket && n < from + 10 * perMarket + 100; n++) {
      const to = `${stem}${String(n % 10_000).padStart(4, '0')}`;
      if (rateCards.placeOf(to, day).market !== market) continue;
      recipients.push({ market, to });
      found++;
    }
    if (found < perMarket) throw new Error(`only ${found} numbers in ${market}`);
  }
  return recipients;
}

/** A sharded item of a day or month (ledger `LEDGER#…#NN / DAY#…`, tier counts `TIERS#…#NN / MONTH#…`): its other shards. */
const SHARDED = /^(LEDGER|TIERS)#.*#(\d\d)$/;
const SHARDS = 8;

/**
 * Every shard of each sharded ledger or tier item written so far holds every entry any of them holds: a busy day
 * leaves each of a number's 8 day items with all its markets and categories. A missing entry is added at 0, so the
 * day's totals (the sums over the shards) are unchanged; an item is written whole, once, before the run's meters.
 */
export async function fillBusyDay(client: DynamoDBDocumentClient, table: string, written: { pk: string; sk: string }[]) {
  const families = new Map<string, { stem: string; sk: string }>();
  for (const { pk, sk } of written) {
    if (SHARDED.test(pk)) families.set(`${pk.slice(0, -2)}\u0000${sk}`, { stem: pk.slice(0, -2), sk });
  }
  let filled = 0;
  for (const { stem, sk } of families.values()) {
    const keys = Array.from({ length: SHARDS }, (_, shard) => ({ pk: `${stem}${String(shard).padStart(2, '0')}`, sk }));
    const items = await Promise.all(keys.map(async (Key) => (await client.send(new GetCommand({ TableName: table, Key }))).Item));
    const entries: Record<string, unknown> = {};
    for (const item of items)
      for (const [name, value] of Object.entries(item ?? {})) if (name.includes('|') && typeof value === 'number') entries[name] = 0;
    // A shard the day had not reached yet takes the others' own attributes (entity, day, WABA, number), no figure.
    const shape = Object.entries(items.find((item) => item !== undefined) ?? {}).filter(([name]) => !(name in entries));
    for (const [shard, key] of keys.entries()) {
      const Item = { ...Object.fromEntries(shape), ...entries, ...items[shard], ...key };
      await client.send(new PutCommand({ TableName: table, Item }));
      filled++;
    }
  }
  return filled;
}
