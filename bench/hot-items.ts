/**
 * Where a run's write units go, by item kind, and how hot each kind's items and partition keys would be at
 * 1,000 messages a second on one number (issue 54 item 4, decisions §19): pure arithmetic on a write summary
 * (local/request-meter.ts summarizeWrites), so the figures BENCHMARKS.md states are checked where they are computed.
 */

/** One item's writes in a run: its key, its largest size and what its writes cost. */
export interface ItemWrites {
  pk: string;
  sk: string;
  bytes: number;
  writes: number;
  units: number;
}

/** The rate issue 54 sizes for: Meta's highest tier, one number. */
export const HIGH_TIER_RATE = 1_000;
/** DynamoDB's most write units a second on one partition (decisions §19). */
export const PARTITION_WRITE_UNITS = 1_000;

/** What one write costs as DynamoDB bills it: the item's size in whole KB (at least 1), twice in a transaction. */
export const writeUnits = (bytes: number, transactional: boolean) => Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);

/**
 * An item's kind: its key with every id, position and date taken out (`SEND#…#P…` / `BLOCK#…`), and a BSUID's
 * region too (`IDENTITY#b#u:…`), so a person's BSUID item is one kind whatever their market.
 */
export const kindOf = (pk: string, sk: string) =>
  `${pk} / ${sk}`
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '…')
    .replace(/u:[A-Z]{2}\./g, 'u:')
    .replace(/[0-9][0-9a-z:.-]*/g, '…');

/** A kind's writes in a run: its items, their writes and units, its largest item, its hottest item and key. */
export interface KindTally {
  kind: string;
  items: number;
  writes: number;
  units: number;
  largestBytes: number;
  /** The kind's item with the most writes (then units). */
  hottestItem: { writes: number; units: number };
  /** Of the partition keys that hold the kind's items, the one with the most units, counting all its items. */
  hottestKey: { pk: string; writes: number; units: number };
}

/** Writes and units by partition key, every kind of item under it counted. */
function byKey(items: ItemWrites[]) {
  const keys = new Map<string, { pk: string; writes: number; units: number }>();
  for (const item of items) {
    const key = keys.get(item.pk) ?? { pk: item.pk, writes: 0, units: 0 };
    key.writes += item.writes;
    key.units += item.units;
    keys.set(item.pk, key);
  }
  return keys;
}

/** Every kind of item a run wrote, most units first. */
export function kindsOf(items: ItemWrites[]): KindTally[] {
  const keys = byKey(items);
  const kinds = new Map<string, KindTally>();
  for (const item of items) {
    const kind = kindOf(item.pk, item.sk);
    const key = keys.get(item.pk)!;
    const tally = kinds.get(kind) ?? {
      kind,
      items: 0,
      writes: 0,
      units: 0,
      largestBytes: 0,
      hottestItem: { writes: 0, units: 0 },
      hottestKey: { ...key },
    };
    tally.items += 1;
    tally.writes += item.writes;
    tally.units += item.units;
    tally.largestBytes = Math.max(tally.largestBytes, item.bytes);
    const hotter =
      item.writes > tally.hottestItem.writes || (item.writes === tally.hottestItem.writes && item.units > tally.hottestItem.units);
    if (hotter) tally.hottestItem = { writes: item.writes, units: item.units };
    if (key.units > tally.hottestKey.units) tally.hottestKey = { ...key };
    kinds.set(kind, tally);
  }
  return [...kinds.values()].sort((a, b) => b.units - a.units);
}

/** A row of the hot-item table: a kind's share of a message, and its hottest item and key at `rate` messages a second. */
export interface HotItemRow {
  kind: string;
  unitsPerMessage: number;
  writesPerMessage: number;
  /** The kind's hottest item: writes and units a second, its run's writes scaled to `rate` messages a second. */
  itemWritesPerSecond: number;
  itemUnitsPerSecond: number;
  /** The hottest partition key holding the kind: units a second at `rate`, every item under the key counted. */
  keyUnitsPerSecond: number;
  /** Whether the key is above DynamoDB's 1,000 write units a second on a partition. */
  overPartitionLimit: boolean;
}

/**
 * The kinds' heat at `rate` messages a second: each figure the run's per-message writes × `rate`. An item of a
 * group of messages (a block, a message) lives a moment: its row is the run's average, its whole life's writes
 * are `hottestItem` (what a single second could at worst take).
 */
export function hotItemRows(kinds: KindTally[], messages: number, rate = HIGH_TIER_RATE): HotItemRow[] {
  const perSecond = (count: number) => (count / messages) * rate;
  return kinds.map((k) => ({
    kind: k.kind,
    unitsPerMessage: k.units / messages,
    writesPerMessage: k.writes / messages,
    itemWritesPerSecond: perSecond(k.hottestItem.writes),
    itemUnitsPerSecond: perSecond(k.hottestItem.units),
    keyUnitsPerSecond: perSecond(k.hottestKey.units),
    overPartitionLimit: perSecond(k.hottestKey.units) > PARTITION_WRITE_UNITS,
  }));
}

const fixed = (n: number, digits: number) => n.toFixed(digits);
const whole = (n: number) => Math.round(n).toLocaleString('en-US');

/** The hot-item table as BENCHMARKS.md prints it, one row a kind, the kinds as `kindsOf` orders them. */
export function hotItemsTable(kinds: KindTally[], messages: number, rate = HIGH_TIER_RATE): string[] {
  const lines = [
    `| item kind | items | largest item | units / message | writes / message | hottest item: writes / s | hottest item: units / s | its partition key: units / s (≤ ${whole(PARTITION_WRITE_UNITS)}) | hottest item: writes in its life |`,
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const rows = hotItemRows(kinds, messages, rate);
  for (const [i, row] of rows.entries()) {
    const k = kinds[i];
    lines.push(
      `| \`${row.kind}\` | ${k.items} | ${fixed(k.largestBytes / 1024, 1)} KB | ${fixed(row.unitsPerMessage, 3)} | ${fixed(row.writesPerMessage, 4)} | ${whole(row.itemWritesPerSecond)} | ${whole(row.itemUnitsPerSecond)} | ${whole(row.keyUnitsPerSecond)}${row.overPartitionLimit ? ': **ABOVE**' : ''} | ${k.hottestItem.writes} |`,
    );
  }
  return lines;
}
