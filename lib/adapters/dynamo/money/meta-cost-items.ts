import type { MetaCostEntry } from '#lib/domain/money/ports.ts';
import { keys } from '../table.ts';

/**
 * Meta's figures of a WABA's day as items (decisions §26, issue 51): a day too large for one DynamoDB item (400 KB)
 * is split into parts. The head (`DAY#<day>`) holds the first part, how many parts the read has and its `read_at`;
 * the others are `DAY#<day>#PART#<read_at>#<n>`, so the parts of two reads never mix: a reader takes the head's
 * read and ignores any other (an older read's parts waiting to be deleted, or a newer one's not yet named).
 */

/** What a part's figures hold at most, in bytes of JSON (larger than their DynamoDB size): the rest of 400 KB is spare. */
export const META_COSTS_PART_BYTES = 300_000;

/** What a part's sort key begins with: after the head's, before `keys.ledgerDayEnd(day)`. */
export const partsPrefix = (day: string) => `${keys.ledgerDay(day)}#PART#`;
const partKey = (day: string, readAt: string, part: number) => `${partsPrefix(day)}${readAt}#${String(part).padStart(4, '0')}`;

/** A day's figures in parts of at most `limit` bytes of JSON each, in order; one part (maybe empty) for a small day. */
export function partsOf(entries: MetaCostEntry[], limit = META_COSTS_PART_BYTES): MetaCostEntry[][] {
  const parts: MetaCostEntry[][] = [[]];
  let size = 0;
  for (const entry of entries) {
    const bytes = Buffer.byteLength(JSON.stringify(entry));
    if (size + bytes > limit && parts.at(-1)!.length > 0) {
      parts.push([]);
      size = 0;
    }
    parts.at(-1)!.push(entry);
    size += bytes;
  }
  return parts;
}

/** The items of a WABA's day as read at `readAt`: the head first, then its other parts. */
export function metaCostItems(wabaId: string, day: string, entries: MetaCostEntry[], readAt: string, limit?: number) {
  const [first, ...rest] = partsOf(entries, limit);
  const pk = keys.metaCost(wabaId);
  const head = {
    pk,
    sk: keys.ledgerDay(day),
    entity: 'meta_cost_day',
    waba_id: wabaId,
    day,
    entries: first,
    parts: rest.length + 1,
    read_at: readAt,
  };
  const parts = rest.map((part, i) => ({
    pk,
    sk: partKey(day, readAt, i + 1),
    entity: 'meta_cost_part',
    waba_id: wabaId,
    day,
    part: i + 1,
    entries: part,
    read_at: readAt,
  }));
  return { head, parts };
}

/** The figures the items of a WABA's days hold: each day's head with its own read's parts, in order; nothing else. */
export function metaCostsOf(items: Record<string, unknown>[]): MetaCostEntry[] {
  const parts = new Map<string, Record<string, unknown>[]>();
  for (const item of items.filter((i) => i.entity === 'meta_cost_part')) {
    const read = `${item.day}|${item.read_at}`;
    parts.set(read, [...(parts.get(read) ?? []), item]);
  }
  return items
    .filter((item) => item.entity === 'meta_cost_day')
    .flatMap((head) => {
      const own = (parts.get(`${head.day}|${head.read_at}`) ?? []).filter((p) => Number(p.part) < Number(head.parts ?? 1));
      const ordered = own.sort((a, b) => Number(a.part) - Number(b.part));
      return [head, ...ordered].flatMap((item) => (item.entries ?? []) as MetaCostEntry[]);
    });
}

/** Parts of reads older than `readAt` among a day's items: no head names them any longer. */
export const olderParts = (items: Record<string, unknown>[], readAt: string) =>
  items.filter((item) => item.entity === 'meta_cost_part' && String(item.read_at) < readAt);
