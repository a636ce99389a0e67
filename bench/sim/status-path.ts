import { createHash } from 'node:crypto';
import { latestFromOf } from '#lib/adapters/dynamo/sends/latest-states.ts';
import { transactionsOf } from '#lib/adapters/dynamo/sends/status-transactions.ts';
import { partOf } from '#lib/adapters/dynamo/sends/send-items.ts';
import { BUDGET_SHARDS, keys, LEDGER_SHARDS, SEND_COUNT_SHARDS, TEMPLATE_FIGURE_SHARDS } from '#lib/adapters/dynamo/table.ts';
import { BLOCK } from '#lib/domain/sends/dispatch/tuning.ts';
import type { StatusUpdate } from '#lib/domain/sends/ports.ts';
import { messageReference, statusStreamKey } from '#lib/domain/shared/message-status.ts';
import { ApplyMetaNotifications, ApplyMetaStatuses } from '#lib/manifest/workers.ts';
import { JOB, randomFrom } from './sends.ts';
import { STATUS_ASSUMPTIONS as A, KINESIS } from './status-assumptions.ts';
import { type ArrivingStatus, messagesOf, statusSlices, statusStream } from './status-stream.ts';
import { type ItemKind, UnitMeter } from './unit-meter.ts';

/**
 * The status path at HIGH rates, modelled (issue 54): Meta's POSTs (bench/sim/status-stream.ts) queued one a
 * status, on SQS (taken by the notifications worker in batches of its trigger's size, lib/manifest/workers.ts) or
 * on Kinesis Data Streams (each shard's records in batches, in order, bench/sim/status-assumptions.ts KINESIS).
 * Each batch's statuses are grouped by send and cut into transactions by the adapter's own transactionsOf; each
 * transaction writes what DynamoMessageStatuses.writesOf writes for the statuses that move a message (a `sent`
 * moves none; a repeat finds its change applied): the latest item of each touched block's third (a message's state
 * is an attribute there, no item of its own since bbea9a9; a third of a block since 60f5830), the send's count
 * shard, its template's day item where its statuses add figures (issue 56), and where it charges the ledger's
 * number day and category, a budget shard and, tier-counted, a tier month shard, at the sizes of
 * status-assumptions.ts, 2 units a KB. The worker's calls go one after another, as its code makes them; its time
 * is what the batches took.
 */
const DAY = '2026-11-26';
const MONTH = '2026-11';

/** A position's block: its job's first position and its offset in blocks of BLOCK (a job is JOB recipients). */
const blockOf = (index: number) => {
  const job = index - (index % JOB);
  return job + Math.floor((index - job) / BLOCK) * BLOCK;
};

/** A message's latest item as the code keys it (latest-states.ts, a send accepted since 60f5830): its block's third. */
const thirdOf = (index: number) => {
  const block = blockOf(index);
  return block + latestFromOf(index - block, 'thirds');
};

/** Where one number's things are: its send's id, its client and WABA, whether its charges count toward a tier. */
function ownerOf(status: ArrivingStatus) {
  const id = status.number * 1_000_000 + status.send;
  const known = owners.get(id);
  if (known) return known;
  const client = Math.ceil(status.number / A.numbersPerClient);
  const tierCounted = (status.number % 2 === 1) === (A.tierCountedNumbers === 'odd');
  const owner = {
    sendId: `n${status.number}-s${status.send}`,
    client,
    waba: `waba${client}`,
    did: `num${status.number}`,
    tierCounted,
    /** The pricing category its charges are filed under (a ledger item a day and category: a86875a). */
    category: tierCounted ? 'utility' : 'marketing',
    /** Its template's day item's sort key: one template a client's category (STATUS_ASSUMPTIONS.templatesPerClient). */
    templateDay: keys.templateFiguresDay(DAY, `waba${client}`, `campaign_${status.number % A.templatesPerClient}`, 'en_US'),
  };
  owners.set(id, owner);
  return owner;
}
const owners = new Map<
  number,
  { sendId: string; client: number; waba: string; did: string; tierCounted: boolean; category: string; templateDay: string }
>();

/** The statuses that add to their template's figures (statusFigures): a delivery, a read, a failure; never a `sent`. */
const FIGURED = new Set<ArrivingStatus['kind']>(['delivered', 'read', 'failed']);
const CHARGED_AT = Date.parse(`${DAY}T10:00:00Z`);

/** Whether a status moves its message's state: a `sent` never does (statusChange), a repeat finds it applied. */
const moves = (status: ArrivingStatus) => !status.repeat && status.kind !== 'sent';

/** A status as the adapter's transactionsOf sees it: a charge (delivered) and a settlement (delivered, failed) add items. */
function updateOf(status: ArrivingStatus): StatusUpdate {
  const owner = ownerOf(status);
  const charged = status.kind === 'delivered';
  const settles = charged || status.kind === 'failed';
  return {
    block: blockOf(status.index),
    index: status.index,
    messageId: `wamid.${status.index}`,
    change: () => null,
    ...(charged && { chargedAt: CHARGED_AT, chargedDay: DAY, chargedCategory: owner.category }),
    ...(charged && owner.tierCounted && { tierVolume: { month: MONTH, key: 'MX|utility', portfolio: owner.waba } }),
    ...(settles && { reserved: { month: MONTH, micros: 1 } }),
  };
}

export interface BatchTally {
  batches: number;
  transactions: number;
  itemsRead: number;
  busyMs: number;
  /** Statuses in the batches applied. */
  statuses: number;
  /** The same transactions' latest items had each been a whole block (a send accepted before 60f5830): how many they would write. */
  blockLatestWrites: number;
  /** `read` statuses that moved their message: latest items only reads moved (the thirds, and whole blocks), and transactions of reads alone. */
  reads: {
    statuses: number;
    latestWrites: number;
    blockLatestWrites: number;
    aloneStatuses: number;
    aloneUnits: number;
    aloneBlockUnits: number;
  };
}

const newTally = (): BatchTally => ({
  batches: 0,
  transactions: 0,
  itemsRead: 0,
  busyMs: 0,
  statuses: 0,
  blockLatestWrites: 0,
  reads: { statuses: 0, latestWrites: 0, blockLatestWrites: 0, aloneStatuses: 0, aloneUnits: 0, aloneBlockUnits: 0 },
});

/** One transaction's items as DynamoMessageStatuses.writesOf makes them, metered by kind, partition and item. */
function writeTransaction(statuses: ArrivingStatus[], meter: UnitMeter, at: number, shard: () => number, tally: BatchTally) {
  const owner = ownerOf(statuses[0]);
  let units = 0;
  const add = (kind: ItemKind, pk: string, sk: string) => {
    units += 2 * A.itemKb[kind];
    meter.add(kind, pk, sk, 2 * A.itemKb[kind], at);
  };
  const thirds = new Set(statuses.map((s) => thirdOf(s.index)));
  for (const third of thirds) {
    const block = blockOf(third);
    add('latest', keys.sendPart(owner.sendId, partOf(block)), keys.sendLatest(block, third - block));
  }
  const blocks = new Set(statuses.map((s) => blockOf(s.index)));
  add('counts', keys.send(owner.sendId), keys.sendCounts(shard() % SEND_COUNT_SHARDS));
  const charged = statuses.some((s) => s.kind === 'delivered');
  if (charged) {
    add(
      'ledger',
      keys.clientLedger(owner.waba, owner.client, shard() % LEDGER_SHARDS),
      keys.ledgerCategoryDay(DAY, owner.did, owner.category),
    );
    if (owner.tierCounted) add('tier', keys.tierCount(owner.waba, shard() % LEDGER_SHARDS), keys.ledgerMonth(MONTH));
  }
  if (charged || statuses.some((s) => s.kind === 'failed'))
    add('budget', keys.budgetShard(owner.client, shard() % BUDGET_SHARDS), keys.budgetMonth(MONTH));
  // Its template's day (issue 56, templateDayUpdates) where its statuses add figures, on a partition drawn at random.
  if (statuses.some((s) => FIGURED.has(s.kind)))
    add('template', keys.templateFigures(owner.client, shard() % TEMPLATE_FIGURE_SHARDS), owner.templateDay);
  tally.blockLatestWrites += blocks.size;
  const reads = statuses.filter((s) => s.kind === 'read');
  if (reads.length === 0) return;
  const others = statuses.filter((s) => s.kind !== 'read');
  const onlyRead = (of: (index: number) => number) => {
    const moved = new Set(others.map((s) => of(s.index)));
    return new Set(reads.map((s) => of(s.index)).filter((first) => !moved.has(first))).size;
  };
  tally.reads.statuses += reads.length;
  tally.reads.latestWrites += onlyRead(thirdOf);
  tally.reads.blockLatestWrites += onlyRead(blockOf);
  if (others.length > 0) return;
  tally.reads.aloneStatuses += reads.length;
  tally.reads.aloneUnits += units;
  tally.reads.aloneBlockUnits += units + 2 * (A.wholeBlockKb * blocks.size - A.itemKb.latest * thirds.size);
}

/**
 * The order a send's statuses reach transactionsOf: as they arrived (the code's: the batch's order), or by
 * position (docs/high-tier.md's figure: a transaction of 100 messages then holds one or two blocks).
 */
export type StatusOrder = 'arrival' | 'position';

/** What the worker's batches write to and count on. */
interface Worker {
  meter: UnitMeter;
  tally: BatchTally;
  shard: () => number;
  order: StatusOrder;
}

/**
 * One batch: each send's statuses in the adapter's transactions, one send after another; before each, a read of
 * its blocks' latest items (the messages' states) and of the blocks this send's call has not read yet; a
 * transaction where a status moves a message. Its time, in ms.
 */
function applyBatch(batch: ArrivingStatus[], { meter, tally, shard, order }: Worker, at = batch[batch.length - 1].at) {
  const started = tally.busyMs;
  const bySend = new Map<string, ArrivingStatus[]>();
  for (const status of batch) {
    const { sendId } = ownerOf(status);
    const group = bySend.get(sendId) ?? [];
    group.push(status);
    bySend.set(sendId, group);
  }
  tally.busyMs += A.invocationMs;
  for (const arrived of bySend.values()) {
    const group = order === 'position' ? [...arrived].sort((a, b) => a.index - b.index) : arrived;
    const byMessage = new Map<number, number[]>();
    for (const [i, status] of group.entries()) byMessage.set(status.index, [...(byMessage.get(status.index) ?? []), i]);
    const read = new Set<number>();
    for (const chunk of transactionsOf(byMessage, group.map(updateOf))) {
      const statuses = chunk.flatMap((index) => (byMessage.get(index) ?? []).map((i) => group[i]));
      // A read of each touched third's latest item, and of each block not read yet in this batch.
      const blocks = new Set(statuses.map((s) => blockOf(s.index)));
      tally.itemsRead += new Set(statuses.map((s) => thirdOf(s.index))).size + [...blocks].filter((block) => !read.has(block)).length;
      for (const block of blocks) read.add(block);
      tally.busyMs += A.readMs;
      const moving = statuses.filter(moves);
      if (moving.length === 0) continue;
      writeTransaction(moving, meter, at, shard, tally);
      tally.transactions++;
      tally.busyMs += A.transactMs;
    }
  }
  tally.batches++;
  tally.statuses += batch.length;
  return tally.busyMs - started;
}

/** Each transaction's count, ledger, budget and tier shard: drawn at random, as the adapter draws them. */
const shardDraws = () => {
  const next = randomFrom(99);
  return () => Math.floor(next() * 1024);
};

/** What a Kinesis run adds to a run's figures: its key, its shards and how loaded the busiest ones were. */
export interface KinesisFigures {
  key: KinesisKey;
  shards: number;
  parallelization: number;
  /** The most records a batch held (BatchSize, or the invocation's 6 MB), and the batch window (ms). */
  batchCap: number;
  batchWindowMs: number;
  /** The busiest shard in any second: its records and bytes put. */
  hottestShard: { records: number; bytes: number };
  /**
   * The busiest lane (a shard's batches at once: one a shard at a ParallelizationFactor of 1): its batches took this
   * share of the time their records took to arrive; above 1 it falls behind.
   */
  busiestLaneBusy: number;
}

export interface StatusPathRun {
  queue: 'SQS' | 'Kinesis';
  numbers: number;
  rate: number;
  /** The window of the steady state the run measures (Kinesis: one period of its stream). */
  windowMs: number;
  /** SQS: the worker's batch size; Kinesis: the most records a batch held. */
  batchSize: number;
  order: StatusOrder;
  posts: number;
  messages: number;
  meter: UnitMeter;
  tally: BatchTally;
  kinesis?: KinesisFigures;
}

/** The status path on SQS over a window of the steady state: batches of `batchSize` in the order the statuses arrive. */
export function statusPath(options: {
  numbers: number;
  rate: number;
  windowMs: number;
  batchSize?: number;
  seed?: number;
  order?: StatusOrder;
}): StatusPathRun {
  const { numbers, rate, windowMs, batchSize = ApplyMetaNotifications.trigger.batchSize, order = 'arrival' } = options;
  const stream = statusStream({ numbers, rate, windowMs, seed: options.seed });
  const worker: Worker = { meter: new UnitMeter(), tally: newTally(), shard: shardDraws(), order };
  for (let first = 0; first < stream.length; first += batchSize) applyBatch(stream.slice(first, first + batchSize), worker);
  worker.meter.close();
  const { meter, tally } = worker;
  return {
    queue: 'SQS',
    numbers,
    rate,
    windowMs,
    batchSize,
    order,
    posts: stream.length,
    messages: messagesOf(numbers, rate, windowMs),
    meter,
    tally,
  };
}

/**
 * A status's Kinesis partition key: its send (the reference names it); its send and block; or by its kind, a
 * `read` its send's (a send's reads come over an hour, a few a second) and the others their send and block's (a
 * HIGH send's `sent` and `delivered` come at twice a shard's 1,000 records a second).
 */
export type KinesisKey = 'send' | 'send+block' | 'kind';

function partitionKeyOf(status: ArrivingStatus, key: KinesisKey) {
  const { sendId } = ownerOf(status);
  const reference = messageReference(sendId, blockOf(status.index), status.index);
  // By kind: the code's own key (the webhook intake puts each status under it).
  if (key === 'kind') return statusStreamKey(status.kind, reference, `wamid.${status.index}`);
  return key === 'send' ? `send:${sendId}` : `send:${sendId}:${blockOf(status.index)}`;
}

/**
 * Kinesis's shard of a partition key (the key's MD5 as a 128-bit number, each shard an even part of the range) and
 * its batch among the shard's ParallelizationFactor (a key's records stay in one, in order): one lane a number.
 */
function laneOf(pk: string, shards: number, parallelization: number) {
  const hash = createHash('md5').update(pk).digest();
  const shard = Math.floor((hash.readUIntBE(0, 6) / 2 ** 48) * shards);
  return shard * parallelization + (hash.readUInt16BE(6) % parallelization);
}

/** A shard's batches at once (one a shard at a ParallelizationFactor of 1): the batch it gathers, and what its batches took. */
interface Lane {
  batch: ArrivingStatus[];
  startedAt: number;
  /** Records that cut the batch (batchCap, less for the first). */
  cap: number;
  busyMs: number;
  spanMs: number;
}

/** Statuses a message brings on average (repeats counted): the shards are sized from it. */
const STATUSES_PER_MESSAGE = (A.sentShare + 1 + A.readShare) * (1 + A.repeatShare);

/**
 * The status path on Kinesis Data Streams: each status put under its partition key, each shard's records (each
 * lane's, with a ParallelizationFactor) in batches of at most KINESIS.batchSize records and 6 MB of event, cut at
 * `batchWindowMs` at the latest. The stream is a steady state, so its window is taken as one period of it: a first
 * pass sets each lane's batches going (nothing applied), the second is measured, every batch cut in it applied.
 * Shards: enough for KINESIS.shardLoad of a shard's records a second on average, unless given.
 */
export function kinesisPath(options: {
  numbers: number;
  rate: number;
  windowMs: number;
  key: KinesisKey;
  shards?: number;
  batchWindowMs?: number;
  parallelization?: number;
  seed?: number;
  order?: StatusOrder;
}): StatusPathRun {
  // The event source as the manifest declares it (ApplyMetaStatuses): its window, batches a shard at once and batch.
  const { trigger } = ApplyMetaStatuses;
  const { numbers, rate, windowMs, key, order = 'arrival' } = options;
  const { batchWindowMs = trigger.batchWindowSeconds * 1000, parallelization = trigger.parallelization } = options;
  const shards = options.shards ?? Math.ceil((numbers * rate * STATUSES_PER_MESSAGE) / (KINESIS.shardRecordsPerSecond * KINESIS.shardLoad));
  const batchCap = Math.min(trigger.batchSize, Math.floor(KINESIS.invokePayloadBytes / KINESIS.eventRecordBytes));
  const worker: Worker = { meter: new UnitMeter(), tally: newTally(), shard: shardDraws(), order };
  const { meter, tally } = worker;
  const lanes = new Map<number, Lane>();
  const phase = randomFrom(4545);
  const hottestShard = { records: 0, bytes: 0 };
  // The window's statuses, drawn once, each with its lane: both passes read them.
  const slices = [...statusSlices({ numbers, rate, windowMs, seed: options.seed })];
  const laneCache = new Map<string, number>();
  const laneIds = slices.map((slice) =>
    Int32Array.from(slice, (status) => {
      const pk = partitionKeyOf(status, key);
      if (pk.split(':').length > 2) return laneOf(pk, shards, parallelization);
      const known = laneCache.get(pk) ?? laneOf(pk, shards, parallelization);
      laneCache.set(pk, known);
      return known;
    }),
  );
  let posts = 0;
  for (const pass of [0, 1]) {
    const measured = pass === 1;
    const offset = pass * windowMs;
    let second = Number.NaN;
    const perShard = new Map<number, number>();
    const closeSecond = () => {
      for (const records of perShard.values()) if (records > hottestShard.records) hottestShard.records = records;
      perShard.clear();
    };
    for (const [k, slice] of slices.entries()) {
      for (const [i, status] of slice.entries()) {
        const at = offset + status.at;
        const laneId = laneIds[k][i];
        let lane = lanes.get(laneId);
        if (!lane) {
          // A lane's first batch is taken as begun a random part of a batch before: the lanes' batches out of step.
          const begun = phase();
          lane = {
            batch: [],
            startedAt: at - begun * batchWindowMs,
            cap: Math.max(1, Math.round((1 - begun) * batchCap)),
            busyMs: 0,
            spanMs: 0,
          };
          lanes.set(laneId, lane);
        }
        if (lane.batch.length > 0 && at - lane.startedAt >= batchWindowMs) cut(lane, measured, at);
        if (Number.isNaN(lane.startedAt)) lane.startedAt = at;
        lane.batch.push(status);
        if (lane.batch.length >= lane.cap) cut(lane, measured, at);
        if (!measured) continue;
        posts++;
        const s = Math.floor(at / 1000);
        if (s !== second) closeSecond();
        second = s;
        const shardId = Math.floor(laneId / parallelization);
        perShard.set(shardId, (perShard.get(shardId) ?? 0) + 1);
      }
    }
    closeSecond();
  }
  function cut(lane: Lane, measured: boolean, at: number) {
    if (measured) {
      lane.busyMs += applyBatch(lane.batch, worker, at);
      lane.spanMs += at - lane.startedAt;
    }
    lane.batch = [];
    lane.startedAt = Number.NaN;
    lane.cap = batchCap;
  }
  meter.close();
  hottestShard.bytes = hottestShard.records * KINESIS.recordBytes;
  const busiestLaneBusy = Math.max(...[...lanes.values()].map(({ busyMs, spanMs }) => (spanMs > 0 ? busyMs / spanMs : 0)));
  return {
    queue: 'Kinesis',
    numbers,
    rate,
    windowMs,
    batchSize: batchCap,
    order,
    posts,
    messages: messagesOf(numbers, rate, windowMs),
    meter,
    tally,
    kinesis: { key, shards, parallelization, batchCap, batchWindowMs, hottestShard, busiestLaneBusy },
  };
}
