import { dayOf, monthOf } from '#lib/domain/shared/calendar.ts';
import type { StatusUpdate } from '#lib/domain/sends/ports.ts';
import { latestFromOf } from './latest-states.ts';
import { TEMPLATE_ITEMS_A_DAY } from './performance-items.ts';
import { ITEMS_PER_WRITE } from './send-items.ts';

/*
 * How a status batch is cut into transactions (decisions §26): what items each report may add to, counted so no
 * transaction holds more than DynamoDB's 100.
 */

/**
 * Status reports' messages in transactions of at most ITEMS_PER_WRITE items, counting every item one holds
 * (decisions §26): the latest items of their blocks' thirds (a message's state is an attribute there: issue 54; a
 * send accepted before has one a block, counted as its thirds all the same, never fewer than it holds), the
 * count shard, and a ledger item for each day its charges fall on (a send has one number, so one ledger item a
 * day) and for each month whose volume tier they count toward; and at most MESSAGES_PER_WRITE messages, so the
 * conditions of one latest item stay within DynamoDB's 4 KB expression.
 */
export function transactionsOf(byMessage: Map<number, number[]>, updates: StatusUpdate[]): number[][] {
  const chunks: number[][] = [];
  let chunk: number[] = [];
  let blocks = new Set<string>();
  let days = new Set<string>();
  const itemsWith = (blockCount: number, dayCount: number) => blockCount + COUNT_ITEMS + dayCount;
  // A template day item a day and variant (decisions §33), counted among the days' items.
  const figureDays = (update: StatusUpdate) =>
    Array.from({ length: TEMPLATE_ITEMS_A_DAY }, (_, v) => `figures ${update.eventDay ?? dayOf(update.at ?? Date.now())} ${v}`);
  for (const [index, reports] of byMessage) {
    const ownBlocks = reports.map((i) => thirdOf(updates[i]));
    const ownDays = reports.flatMap((i) => [...ledgerItemsOf(updates[i]), ...figureDays(updates[i])]);
    const newBlocks = new Set(ownBlocks.filter((b) => !blocks.has(b))).size;
    const newDays = new Set(ownDays.filter((d) => !days.has(d))).size;
    const full = chunk.length >= MESSAGES_PER_WRITE || itemsWith(blocks.size + newBlocks, days.size + newDays) > ITEMS_PER_WRITE;
    if (chunk.length > 0 && full) {
      chunks.push(chunk);
      chunk = [];
      blocks = new Set();
      days = new Set();
    }
    chunk.push(index);
    for (const b of ownBlocks) blocks.add(b);
    for (const d of ownDays) days.add(d);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** A report's latest item in the `thirds` layout, as transactionsOf counts items: its block and third. */
const thirdOf = ({ block, index }: StatusUpdate) => `${block}.${latestFromOf(index - block, 'thirds')}`;

/** Messages per status transaction: a block's 90 conditions fit one latest item's expression (latest-records test). */
export const MESSAGES_PER_WRITE = 100;

/** The send's count shard, in every status transaction. */
const COUNT_ITEMS = 1;

/**
 * The ledger and budget items a report may add to: its charge's day and month (the client's spent), its month's
 * volume where it is tier-counted, and the month its send reserved in (the reservation given back).
 */
const ledgerItemsOf = (update: StatusUpdate) => [
  ...(update.chargedAt === undefined
    ? []
    : [
        // Its ledger day is its WABA's (decisions §31), where the status path gave it; an item a day and category.
        `${update.chargedDay ?? dayOf(update.chargedAt)} ${update.chargedCategory ?? ''}`,
        // A charge of a month before now's may be late: one item for all of them (ledger-items.ts ledgerWrites).
        ...(monthOf(update.chargedDay ?? update.chargedAt) < monthOf(Date.now()) ? ['late charges'] : []),
        `budget ${monthOf(update.chargedDay ?? update.chargedAt)}`,
        ...(update.tierVolume ? [`volume ${update.tierVolume.month}`] : []),
      ]),
  ...(update.reserved ? [`budget ${update.reserved.month}`] : []),
];
