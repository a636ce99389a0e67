import { ApplyMetaNotifications } from '#lib/manifest/workers.ts';
import { ALB_LCU, STATUS_ASSUMPTIONS as A, KINESIS, LOG_BYTES, MONTH_SECONDS, PRICES } from './status-assumptions.ts';
import type { StatusPathRun } from './status-path.ts';

/**
 * What the status path's run (bench/sim/status-path.ts) comes to a second and per 1,000,000 messages with their
 * statuses (issue 54): the intake, the queue (SQS, or Kinesis Data Streams provisioned or on demand), the worker,
 * the table, and each webhook intake AWS offers.
 */
export type Intake = 'HTTP API' | 'function URL' | 'ALB';
export const INTAKES: Intake[] = ['HTTP API', 'function URL', 'ALB'];

/** SQS's most messages a ReceiveMessage or DeleteMessageBatch takes. */
const SQS_BATCH = 10;

/** The run's figures a second. */
export function perSecond(run: StatusPathRun) {
  const seconds = run.windowMs / 1000;
  const { tally, meter, posts } = run;
  const sqs = run.queue === 'SQS';
  const sqsPerBatch = 2 * Math.ceil(run.batchSize / SQS_BATCH);
  // Batches at once the event source runs: the manifest's for SQS; a shard's ParallelizationFactor for Kinesis.
  const lanes = run.kinesis ? run.kinesis.shards * run.kinesis.parallelization : ApplyMetaNotifications.trigger.maxConcurrency;
  return {
    posts: posts / seconds,
    messages: run.messages / seconds,
    intakeConcurrency: (posts / seconds) * (A.intakeMs / 1000),
    batches: tally.batches / seconds,
    batchMs: tally.busyMs / tally.batches,
    transactions: tally.transactions / seconds,
    /** Invocations at once the worker needs to keep up: its busy time a second. */
    workerConcurrency: tally.busyMs / run.windowMs,
    /** Messages in flight on the queue (received, not yet deleted) at that concurrency: SQS allows about 120,000. */
    inFlight: sqs ? (tally.busyMs / run.windowMs) * run.batchSize : 0,
    /** Batches the event source runs at once, and the statuses a second they take at the batches' size and time. */
    lanes,
    configuredCapacity: (lanes * (tally.statuses / tally.batches)) / (tally.busyMs / tally.batches / 1000),
    /** SendMessage for each POST; a batch's receives and deletes, 10 messages a call. None with Kinesis. */
    sqsRequests: sqs ? (posts + tally.batches * sqsPerBatch) / seconds : 0,
    /** Kinesis: a PutRecord for each POST. */
    records: sqs ? 0 : posts / seconds,
    writeUnits: meter.total / seconds,
    readUnits: tally.itemsRead / seconds,
  };
}

/** The intake's own charge a second (Lambda's is apart): HTTP API requests, ALB hours and LCUs, none for a function URL. */
export function intakeDollarsPerSecond(intake: Intake, postsPerSecond: number) {
  if (intake === 'HTTP API') return postsPerSecond * PRICES.httpApiRequest;
  if (intake === 'function URL') return 0;
  const gbPerHour = (postsPerSecond * A.requestBytes * 3600) / 2 ** 30;
  // The largest dimension is billed; rule evaluations are none (the first 10 rules are free, the route is one).
  const lcus = Math.max((postsPerSecond * A.newConnectionShare) / ALB_LCU.newConnectionsPerSecond, gbPerHour / ALB_LCU.lambdaGbPerHour);
  return (PRICES.albHour + lcus * PRICES.albLcuHour) / 3600;
}

/** Kinesis Data Streams' charge a second: shard hours and PUT payload units (provisioned), or stream hours and GB in and read (on demand). */
export function kinesisDollarsPerSecond(run: StatusPathRun, mode: KinesisMode) {
  const { records } = perSecond(run);
  if (mode === 'provisioned') return ((run.kinesis?.shards ?? 0) * PRICES.kinesisShardHour) / 3600 + records * PRICES.kinesisPutUnit;
  const gb = (records * Math.ceil(KINESIS.recordBytes / 1024)) / 2 ** 20;
  return PRICES.kinesisStreamHour / 3600 + gb * (PRICES.kinesisInGb + PRICES.kinesisOutGb);
}
export type KinesisMode = 'provisioned' | 'on demand';

/** Bytes of logs a second the path sends: the intake's line a POST, the worker's a batch with Lambda's own, the dispatch's. */
export function logBytesPerSecond(rates: { posts: number; batches: number; messages: number }) {
  return (
    rates.posts * LOG_BYTES.intakePost +
    rates.batches * (LOG_BYTES.workerBatch + LOG_BYTES.platformInvocation) +
    rates.messages * LOG_BYTES.dispatchMessage
  );
}

/** $ a GB of logs, averaged over a month's tiers at `gbPerMonth` (flat: the first tier's, a small account's rate). */
export function logDollarsPerGb(gbPerMonth: number, flat = false) {
  if (flat) return PRICES.logTiers[0][1];
  let left = gbPerMonth;
  let dollars = 0;
  for (const [gb, price] of PRICES.logTiers) {
    const taken = Math.min(left, gb);
    dollars += taken * price;
    left -= taken;
  }
  return dollars / gbPerMonth;
}

/** The logs' charge a second at these rates, tiered by the month they make (or flat at the first tier's). */
export function logDollarsPerSecond(rates: { posts: number; batches: number; messages: number }, flat = false) {
  const gbPerSecond = logBytesPerSecond(rates) / 2 ** 30;
  return gbPerSecond * logDollarsPerGb(gbPerSecond * MONTH_SECONDS, flat);
}

/** Each part's cost per 1,000,000 messages with their statuses, for one intake (Kinesis: provisioned unless said). */
export function costPerMillion(run: StatusPathRun, intake: Intake, mode: KinesisMode = 'provisioned') {
  const rates = perSecond(run);
  const perMillion = (dollarsPerSecond: number) => (dollarsPerSecond / rates.messages) * 1e6;
  const lambda = (invocations: number, busySeconds: number) =>
    invocations * PRICES.lambdaRequest + busySeconds * A.memoryGb * PRICES.lambdaGbSecond;
  return {
    intake: perMillion(intakeDollarsPerSecond(intake, rates.posts)),
    intakeFunction: perMillion(lambda(rates.posts, rates.intakeConcurrency)),
    queue: perMillion(run.kinesis ? kinesisDollarsPerSecond(run, mode) : rates.sqsRequests * PRICES.sqsRequest),
    worker: perMillion(lambda(rates.batches, rates.workerConcurrency)),
    writes: perMillion(rates.writeUnits * PRICES.writeUnit),
    reads: perMillion(rates.readUnits * PRICES.readUnit),
    logs: perMillion(logDollarsPerSecond(rates)),
  };
}

export const totalOf = (parts: Record<string, number>) => Object.values(parts).reduce((sum, dollars) => sum + dollars, 0);

/**
 * Write units over the run had each latest item been its whole block's (STATUS_ASSUMPTIONS.wholeBlockKb, as a
 * send accepted before 60f5830 keeps them), the rest as written: the figure of before the thirds.
 */
export const unitsWithWholeBlockLatest = (run: StatusPathRun) =>
  run.meter.total - run.meter.units.latest + run.tally.blockLatestWrites * 2 * A.wholeBlockKb;

/** What a `read` status costs: the latest items only reads moved, per read status (the thirds', and whole blocks' before them). */
export function readFigures(run: StatusPathRun) {
  const { reads } = run.tally;
  return {
    latest: (reads.latestWrites * 2 * A.itemKb.latest) / reads.statuses,
    blockLatest: (reads.blockLatestWrites * 2 * A.wholeBlockKb) / reads.statuses,
    /** A transaction of reads alone (most of them): its units per read, with the count shard and template day. */
    alone: reads.aloneUnits / reads.aloneStatuses,
    aloneBlock: reads.aloneBlockUnits / reads.aloneStatuses,
    aloneShare: reads.aloneStatuses / reads.statuses,
    perMessage: (reads.latestWrites * 2 * A.itemKb.latest) / run.messages,
  };
}
