import { ApplyMetaNotifications } from '#lib/manifest/workers.ts';
import { ALB_LCU, STATUS_ASSUMPTIONS as A, PRICES } from './status-assumptions.ts';
import type { StatusPathRun } from './status-path.ts';

/**
 * What the status path's run (bench/sim/status-path.ts) comes to a second and per 1,000,000 messages with their
 * statuses (issue 54): the intake, the queue, the worker, the table, and each webhook intake AWS offers.
 */
export type Intake = 'HTTP API' | 'function URL' | 'ALB';
export const INTAKES: Intake[] = ['HTTP API', 'function URL', 'ALB'];

/** SQS's most messages a ReceiveMessage or DeleteMessageBatch takes. */
const SQS_BATCH = 10;

/** The run's figures a second. */
export function perSecond(run: StatusPathRun) {
  const seconds = run.windowMs / 1000;
  const { tally, meter, posts } = run;
  const sqsPerBatch = 2 * Math.ceil(run.batchSize / SQS_BATCH);
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
    inFlight: (tally.busyMs / run.windowMs) * run.batchSize,
    /** Statuses a second the worker takes at the manifest's concurrency. */
    configuredCapacity: (ApplyMetaNotifications.trigger.maxConcurrency * run.batchSize) / (tally.busyMs / tally.batches / 1000),
    /** SendMessage for each POST; a batch's receives and deletes, 10 messages a call. */
    sqsRequests: (posts + tally.batches * sqsPerBatch) / seconds,
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

/** Each part's cost per 1,000,000 messages with their statuses, for one intake. */
export function costPerMillion(run: StatusPathRun, intake: Intake) {
  const rates = perSecond(run);
  const perMillion = (dollarsPerSecond: number) => (dollarsPerSecond / rates.messages) * 1e6;
  const lambda = (invocations: number, busySeconds: number) =>
    invocations * PRICES.lambdaRequest + busySeconds * A.memoryGb * PRICES.lambdaGbSecond;
  return {
    intake: perMillion(intakeDollarsPerSecond(intake, rates.posts)),
    intakeFunction: perMillion(lambda(rates.posts, rates.intakeConcurrency)),
    queue: perMillion(rates.sqsRequests * PRICES.sqsRequest),
    worker: perMillion(lambda(rates.batches, rates.workerConcurrency)),
    writes: perMillion(rates.writeUnits * PRICES.writeUnit),
    reads: perMillion(rates.readUnits * PRICES.readUnit),
  };
}

export const totalOf = (parts: Record<string, number>) => Object.values(parts).reduce((sum, dollars) => sum + dollars, 0);
