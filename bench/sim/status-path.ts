import { transactionsOf } from '#lib/adapters/dynamo/sends/message-statuses.ts';
import { partOf } from '#lib/adapters/dynamo/sends/send-items.ts';
import { BUDGET_SHARDS, keys, LEDGER_SHARDS, SEND_COUNT_SHARDS } from '#lib/adapters/dynamo/table.ts';
import { BLOCK } from '#lib/domain/sends/dispatch/tuning.ts';
import type { StatusUpdate } from '#lib/domain/sends/ports.ts';
import { ApplyMetaNotifications } from '#lib/manifest/workers.ts';
import { JOB, randomFrom } from './sends.ts';
import { STATUS_ASSUMPTIONS as A } from './status-assumptions.ts';
import { type ArrivingStatus, messagesOf, statusStream } from './status-stream.ts';
import { type ItemKind, UnitMeter } from './unit-meter.ts';

/**
 * The status path at HIGH rates, modelled (issue 54): Meta's POSTs (bench/sim/status-stream.ts) queued one a
 * message, taken by the notifications worker in batches of its trigger's size (lib/manifest/workers.ts), each
 * batch's statuses grouped by send and cut into transactions by the adapter's own transactionsOf, each transaction
 * writing the items DynamoMessageStatuses writes (each moved message's state, its blocks' latest items, a count
 * shard, and where it charges the ledger's, the budget's and the tier month's items), at the sizes of
 * bench/sim/status-assumptions.ts, 2 units a KB in a transaction. The worker's calls go one after another, as its
 * code makes them; its time is what the batches took.
 */
const DAY = '2026-11-26';
const MONTH = '2026-11';

/** A position's block: its job's first position and its offset in blocks of BLOCK (a job is JOB recipients). */
const blockOf = (index: number) => {
  const job = index - (index % JOB);
  return job + Math.floor((index - job) / BLOCK) * BLOCK;
};

/** Where one number's things are: its send's id, its client and WABA, whether its charges count toward a tier. */
function ownerOf(status: ArrivingStatus) {
  const client = Math.ceil(status.number / A.numbersPerClient);
  return {
    sendId: `n${status.number}-s${status.send}`,
    client,
    waba: `waba${client}`,
    did: `num${status.number}`,
    tierCounted: (status.number % 2 === 1) === (A.tierCountedNumbers === 'odd'),
  };
}

/** A status as the adapter's transactionsOf sees it: a charge (delivered) and a settlement (delivered, failed) add items. */
function updateOf(status: ArrivingStatus): StatusUpdate {
  const charged = status.kind === 'delivered';
  const settles = charged || status.kind === 'failed';
  return {
    block: blockOf(status.index),
    index: status.index,
    messageId: `wamid.${status.index}`,
    change: () => null,
    ...(charged && { chargedAt: Date.parse(`${DAY}T10:00:00Z`), chargedDay: DAY }),
    ...(charged && ownerOf(status).tierCounted && { tierVolume: { month: MONTH, key: 'MX|utility', portfolio: ownerOf(status).waba } }),
    ...(settles && { reserved: { month: MONTH, micros: 1 } }),
  };
}

export interface BatchTally {
  batches: number;
  transactions: number;
  itemsRead: number;
  busyMs: number;
}

/** One transaction's items as DynamoMessageStatuses writes them, metered by kind, partition and item. */
function writeTransaction(statuses: ArrivingStatus[], meter: UnitMeter, at: number, shard: () => number) {
  const owner = ownerOf(statuses[0]);
  const add = (kind: ItemKind, pk: string, sk: string) => meter.add(kind, pk, sk, 2 * A.itemKb[kind], at);
  const blocks = new Set<number>();
  for (const index of new Set(statuses.map((s) => s.index))) {
    add('message', keys.sendPart(owner.sendId, partOf(index)), keys.sendMessage(index));
    blocks.add(blockOf(index));
  }
  for (const block of blocks) add('latest', keys.sendPart(owner.sendId, partOf(block)), keys.sendLatest(block));
  add('counts', keys.send(owner.sendId), keys.sendCounts(shard() % SEND_COUNT_SHARDS));
  if (statuses.some((s) => s.kind === 'delivered')) {
    add('ledger', keys.clientLedger(owner.waba, owner.client, shard() % LEDGER_SHARDS), keys.ledgerNumberDay(DAY, owner.did));
    if (owner.tierCounted) add('tier', keys.tierCount(owner.waba, shard() % LEDGER_SHARDS), keys.ledgerMonth(MONTH));
  }
  if (statuses.some((s) => s.kind === 'delivered' || s.kind === 'failed'))
    add('budget', keys.budgetShard(owner.client, shard() % BUDGET_SHARDS), keys.budgetMonth(MONTH));
}

/** One batch: each send's statuses in the adapter's transactions, a read before each, a write where one is new. */
function applyBatch(batch: ArrivingStatus[], meter: UnitMeter, tally: BatchTally, shard: () => number) {
  const at = batch[batch.length - 1].at;
  const bySend = new Map<string, ArrivingStatus[]>();
  for (const status of batch) {
    const { sendId } = ownerOf(status);
    const group = bySend.get(sendId) ?? [];
    group.push(status);
    bySend.set(sendId, group);
  }
  tally.busyMs += A.invocationMs;
  for (const group of bySend.values()) {
    const byMessage = new Map<number, number[]>();
    for (const [i, status] of group.entries()) byMessage.set(status.index, [...(byMessage.get(status.index) ?? []), i]);
    for (const chunk of transactionsOf(byMessage, group.map(updateOf))) {
      const statuses = chunk.flatMap((index) => (byMessage.get(index) ?? []).map((i) => group[i]));
      tally.itemsRead += chunk.length + new Set(statuses.map((s) => blockOf(s.index))).size;
      tally.busyMs += A.readMs;
      const fresh = statuses.filter((s) => !s.repeat);
      if (fresh.length === 0) continue;
      writeTransaction(fresh, meter, at, shard);
      tally.transactions++;
      tally.busyMs += A.transactMs;
    }
  }
  tally.batches++;
}

/** The status path over a window of the steady state: what each part does a second. */
export function statusPath(options: { numbers: number; rate: number; windowMs: number; batchSize?: number; seed?: number }) {
  const { numbers, rate, windowMs, batchSize = ApplyMetaNotifications.trigger.batchSize } = options;
  const stream = statusStream({ numbers, rate, windowMs, seed: options.seed });
  const meter = new UnitMeter();
  const tally: BatchTally = { batches: 0, transactions: 0, itemsRead: 0, busyMs: 0 };
  const shard = (() => {
    const next = randomFrom(99);
    return () => Math.floor(next() * 1024);
  })();
  for (let first = 0; first < stream.length; first += batchSize) applyBatch(stream.slice(first, first + batchSize), meter, tally, shard);
  meter.close();
  return { numbers, rate, windowMs, batchSize, posts: stream.length, messages: messagesOf(numbers, rate, windowMs), meter, tally };
}

export type StatusPathRun = ReturnType<typeof statusPath>;
