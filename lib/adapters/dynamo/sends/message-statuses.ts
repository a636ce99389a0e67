import type { StatusResult, MessageStatuses, StatusUpdate } from '#lib/domain/sends/ports.ts';
import type { LedgerEntry } from '#lib/domain/money/ports.ts';
import { Cache } from '../../cache.ts';
import type { SendReservation } from '#lib/domain/money/pricing/reservation.ts';
import { type BatchMessage, billStatusBatch, type StatusBatchBill } from '#lib/domain/money/status-billing.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { statusFigures } from '#lib/domain/sends/figures.ts';
import { type FiguresOwner, figuresOwnerOf, templateDayUpdates, templateOfVariant, withDeliveryTimes } from './performance-items.ts';
import { budgetMoveUpdate } from '../money/budget-store.ts';
import { transactionsOf } from './status-transactions.ts';
import { ledgerWrites } from '../money/ledger-items.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet } from '../queries.ts';
import { keys, SORT } from '../table.ts';
import { cancellationCodes, type TransactItem } from '../transactions.ts';
import {
  decodeRecord,
  deliveryAttribute,
  type LatestRecord,
  type LatestWrite,
  latestFromOf,
  latestItemKey,
  latestStatesUpdate,
  layoutOf,
  type StatesLayout,
  titleAttribute,
} from './latest-states.ts';
import {
  acceptedStateOf,
  blockKey,
  type ChargeTally,
  countUpdate,
  isOutcomeOf,
  ledgerEntryKey,
  messageKey,
  monthVolumeUpdate,
  TRIES,
  transact,
} from './send-items.ts';

/**
 * The delivery statuses of a send's messages (decisions §13): each message's state an attribute of the latest item
 * that holds it, its block's third (latest-states.ts), written on condition it is still the value read, and the
 * send's counts on a count shard, in one transaction. A send accepted before keeps its layout: the whole block on
 * one latest item; before issue 54 each state on an item of its own as well (`MSG#`): its states are the same on
 * the latest item, and only a mark its item got at the TTL's end is read there.
 */
export class DynamoMessageStatuses implements MessageStatuses {
  constructor(private readonly table: ServiceTable) {}

  async accountOf(sendId: string) {
    if (owners.get(sendId) === undefined) {
      const { Item } = await this.table.client.send(
        new GetCommand({ TableName: this.table.name, Key: { pk: keys.send(sendId), sk: SORT.send } }),
      );
      if (!Item) return undefined;
      owners.set(sendId, ownerOf(Item));
    }
    const owner = owners.get(sendId);
    return owner && { client_id: owner.client_id, ...(owner.reservation && { reservation: owner.reservation }) };
  }

  /**
   * Reports grouped by message, up to MESSAGES_PER_WRITE messages per transaction: each message's state is
   * written on condition of the version read, with one count shard for them all, and what the batch bills
   * (billStatusBatch) beside them. A transaction cancelled by a state that moved meanwhile is read and tried
   * again; its reports then change only what is still new.
   */
  async applyStatuses(sendId: string, updates: StatusUpdate[], wabaId?: string): Promise<StatusResult[]> {
    const results: StatusResult[] = new Array(updates.length);
    const byMessage = new Map<number, number[]>();
    // One send's charges close by one clock: its client's billing timezone, or its WABA's (decisions §31).
    const zone = updates.find((update) => update.statementZone)?.statementZone;
    for (const [i, update] of updates.entries()) byMessage.set(update.index, [...(byMessage.get(update.index) ?? []), i]);
    const blocks: ReadBlocks = new Map();
    for (const chunk of transactionsOf(byMessage, updates)) {
      const reports = chunk.map((index) => ({ index, reports: byMessage.get(index)!.map((i) => ({ i, update: updates[i] })) }));
      for (let attempt = 1; ; attempt++) {
        const stored = await this.read(sendId, reports, blocks);
        const batch = reports.flatMap((message) => applicableOf(message, blocks, stored.get(message.index), results));
        const now = Date.now();
        const bill = billStatusBatch({ messages: batch, send: owners.get(sendId), wabaId, now });
        for (const [k, message] of bill.messages.entries())
          for (const [j, applied] of message.applied.entries()) results[batch[k].reports[j]] = applied ? 'applied' : 'unchanged';
        // What it adds to the send's figures (decisions §33), and when its messages newly delivered were.
        const figured = statusFigures(batch, now);
        const writes = this.writesOf(sendId, batch, bill, { wabaId, now, zone, figured, blocks });
        if (writes.length === 0) break;
        const counted = { add: bill.counts, errors: bill.errors, costs: bill.byCategory, figures: figured.tally.adds };
        try {
          await transact(this.table, () => [...writes, countUpdate(this.table.name, sendId, counted)]);
          break;
        } catch (error) {
          // Another report of one of these messages was applied meanwhile: read them again.
          if (!cancellationCodes(error)?.includes('ConditionalCheckFailed') || attempt >= TRIES) throw error;
        }
      }
    }
    return results;
  }

  /**
   * The messages' records, by index, in one read of the latest items that hold them, with the blocks not read yet
   * (a settled block never changes) and, the first time, whose the send is (its client and number: where its
   * charges go; its layout, so then both the block's first item and the message's third); a send's of before
   * issue 54, its messages' own items too, for their marks.
   */
  private async read(sendId: string, reports: MessageReports[], blocks: ReadBlocks) {
    const firsts = [...new Set(reports.flatMap((message) => message.reports.map(({ update }) => update.block)))];
    const unread = firsts.filter((b) => !blocks.has(b));
    const owner = owners.get(sendId);
    const layouts: StatesLayout[] = owner ? [owner.layout] : ['block', 'thirds'];
    const latestKeys = new Map(
      reports.flatMap(({ index, reports: own }) =>
        layouts.map((layout) => {
          const key = latestOf(sendId, own[0].update.block, index, layout);
          return [`${key.pk}|${key.sk}`, key] as const;
        }),
      ),
    );
    const read = await batchGet(
      this.table,
      [
        ...unread.map((first) => blockKey(sendId, first)),
        ...latestKeys.values(),
        ...(owner && owner.layout !== 'messages' ? [] : reports.map(({ index }) => messageKey(sendId, index))),
        ...(owner ? [] : [{ pk: keys.send(sendId), sk: SORT.send }]),
      ],
      true,
    );
    const latest = new Map<string, Record<string, unknown>>();
    const marks = new Map<number, string>();
    for (const item of read) {
      if (item.entity === 'send') owners.set(sendId, ownerOf(item));
      else if (item.entity === 'send_block') blocks.set(Number(item.first), readBlockOf(item));
      else if (item.entity === 'send_message') item.ttl_returned_at && marks.set(Number(item.index), String(item.ttl_returned_at));
      else latest.set(`${item.pk}|${item.sk}`, item);
    }
    for (const first of unread) if (!blocks.has(first)) blocks.set(first, undefined);
    const layout = owners.get(sendId)?.layout ?? 'thirds';
    const stored = new Map<number, StoredRecord>();
    for (const { index, reports: own } of reports) {
      const first = own[0].update.block;
      const key = latestOf(sendId, first, index, layout);
      stored.set(index, recordOf(latest.get(`${key.pk}|${key.sk}`), index - first, marks.get(index)));
    }
    return stored;
  }

  /** The batch's items: each moved message's state, its block's latest item, what the batch bills, its template's day. */
  private writesOf(sendId: string, batch: ApplicableMessage[], bill: StatusBatchBill, context: WriteContext) {
    const { wabaId, now, zone, figured } = context;
    const { name } = this.table;
    const writes: TransactItem[] = [];
    const owner = owners.get(sendId);
    const latest = new Map<string, { key: { pk: string; sk: string }; first: number; records: Map<number, LatestWrite> }>();
    for (const [k, { index, state, moved }] of bill.messages.entries()) {
      if (!moved) continue;
      const { block, seen, returnedAt } = batch[k];
      const key = latestOf(sendId, block, index, owner?.layout ?? 'thirds');
      const item = latest.get(key.sk) ?? { key, first: block, records: new Map<number, LatestWrite>() };
      latest.set(key.sk, item);
      item.records.set(index - block, { state, ...(seen !== undefined && { seen }), ...(returnedAt && { returnedAt }) });
    }
    for (const { key, first, records } of latest.values()) {
      // A third's records are by the message's offset in its block, as its delivery times are (performance-items.ts).
      const block = { first, offsets: records.keys(), settledMs: context.blocks.get(first)?.settledMs };
      writes.push(withDeliveryTimes(latestStatesUpdate(name, key, records, now), block, figured.deliveredAt));
    }
    if (writes.length === 0) return writes;
    if (wabaId && owner) writes.push(...templateDayUpdates(name, figured.tally.adds, (v) => templateOfVariant(owner, wabaId, v)));
    if (wabaId && owner) writes.push(...ledgerWrites(name, { waba_id: wabaId, ...owner }, ledgerDaysOf(bill.ledger), now, zone));
    const portfolio = bill.tierPortfolio ?? wabaId;
    if (portfolio) for (const [month, counts] of bill.tiers) writes.push(monthVolumeUpdate(name, portfolio, month, counts));
    if (owner) for (const [month, move] of bill.budget) writes.push(budgetMoveUpdate(name, owner.client_id, month, move));
    return writes;
  }
}

/**
 * A block as its statuses read it: its answers by offset (a settled block's outcomes, or what a claimed or
 * handed-back one recorded so far, decisions §30) and their failures' titles; `pending` until it is settled.
 */
type ReadBlock = {
  pending: boolean;
  answers: Record<number, unknown>;
  titles: Record<string, string>;
  variant: number;
  settledMs?: number;
};
/** Blocks as read, by their first position; one not found undefined. */
type ReadBlocks = Map<number, ReadBlock | undefined>;

function readBlockOf(item: Record<string, unknown>): ReadBlock {
  const pending = item.state === 'claimed' || item.state === 'open';
  return {
    pending,
    answers: ((pending ? item.got : item.outcomes) ?? {}) as Record<number, unknown>,
    titles: ((pending ? item.got_titles : item.titles) ?? {}) as Record<string, string>,
    // Its messages' template variant as its settlement wrote it (decisions §33; absent, the send's one), and when.
    variant: Number(item.variant ?? 0),
    ...(item.settled_at !== undefined && { settledMs: Date.parse(String(item.settled_at)) }),
  };
}
/** A message's reports, each with its place in the batch. */
type MessageReports = { index: number; reports: { i: number; update: StatusUpdate }[] };
/** A message's record as read: its value on its block's latest item (the next write's condition), decoded. */
type StoredRecord = LatestRecord & { seen?: string };
/** A message's reports its block knows, with its record as read and each report's place in the batch. */
type ApplicableMessage = BatchMessage & { block: number; seen?: string; reports: number[]; returnedAt?: string; variant: number };
/** How a batch's items are written: its WABA, when, its statement's zone and its figures. */
type WriteContext = { wabaId?: string; now: number; zone?: string; figured: ReturnType<typeof statusFigures>; blocks: ReadBlocks };

/** The latest item that holds a message, in its send's layout. */
const latestOf = (sendId: string, block: number, index: number, layout: StatesLayout) =>
  latestItemKey(sendId, block, latestFromOf(index - block, layout));

/** A message's record on its latest item, as read (with the mark its own item got before issue 54). */
function recordOf(latest: Record<string, unknown> | undefined, offset: number, oldMark?: string): StoredRecord {
  const seen = latest?.[deliveryAttribute(offset)];
  const record = typeof seen === 'string' ? decodeRecord(seen, (code) => latest?.[titleAttribute(code)] as string | undefined) : {};
  const returnedAt = record.returnedAt ?? oldMark;
  return { ...record, ...(typeof seen === 'string' && { seen }), ...(returnedAt && { returnedAt }) };
}

/**
 * A message's reports its block knows (its answer sent the message the report names), whatever the block's state:
 * settled, or claimed or handed back with the answer recorded (decisions §30). The state is the one read or,
 * before any status was applied, the one it was accepted in (held by Meta, or not). The others are answered
 * here: `unsettled` while a pending block has no answer for the message yet, `unknown` otherwise.
 */
function applicableOf(
  { index, reports }: MessageReports,
  blocks: ReadBlocks,
  stored: StoredRecord | undefined,
  results: StatusResult[],
): ApplicableMessage[] {
  const known = reports.filter(({ i, update }) => {
    const block = blocks.get(update.block);
    const answer = block?.answers[index - update.block];
    if (block?.pending && answer === undefined) results[i] = 'unsettled';
    else if (!block || !isOutcomeOf(answer, update.messageId)) results[i] = 'unknown';
    else return true;
    return false;
  });
  if (known.length === 0) return [];
  const first = known[0].update.block;
  const block = blocks.get(first)!;
  const state = stored?.delivery?.state ?? acceptedStateOf(block.answers[index - first], block.titles);
  const statuses = known.map(({ update }) => update);
  // Given back at its TTL's end (decisions §30): a late final status releases nothing more, and the mark is kept.
  const returnedAt = stored?.returnedAt;
  return [
    {
      index,
      state,
      statuses,
      block: first,
      variant: block.variant,
      ...(stored?.seen !== undefined && { seen: stored.seen }),
      reports: known.map(({ i }) => i),
      ...(returnedAt && { returnedAt, reservationReturned: true }),
    },
  ];
}

/** The ledger entries by day, each under its ledger key: a send has one number, so one ledger item a day. */
function ledgerDaysOf(entries: LedgerEntry[]) {
  const days = new Map<string, Map<string, ChargeTally>>();
  for (const entry of entries) {
    const day = days.get(entry.day) ?? new Map<string, ChargeTally>();
    const key = ledgerEntryKey(entry);
    const known = day.get(key) ?? { messages: 0, billable: 0, micros: 0 };
    known.messages += entry.messages;
    known.billable += entry.billable;
    known.micros += entry.micros;
    if (entry.price_micros !== undefined) known.price = (known.price ?? 0) + entry.price_micros;
    days.set(entry.day, day.set(key, known));
  }
  return days;
}

/**
 * Whose each send is and what it reserved, as read once (neither ever changes), for the container's recent sends:
 * kept by the process, so every store of it shares what any of them read.
 */
const owners = new Cache<string, SendOwner>({ maxEntries: 10_000, maxAgeMs: Number.POSITIVE_INFINITY });
/** And what its figures need (decisions §33): its variants' templates and currencies. */
type SendOwner = { client_id: number; did: string; reservation?: SendReservation; layout: StatesLayout } & FiguresOwner;

const ownerOf = (item: Record<string, unknown>): SendOwner => ({
  client_id: Number(item.client_id),
  did: String(item.did),
  layout: layoutOf(item),
  ...figuresOwnerOf(item),
  ...(item.reservation !== undefined && { reservation: item.reservation as SendReservation }),
});
