import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { loadConfig } from '#lib/config.ts';
import { inInvocation, workLogger } from '#lib/log/logger.ts';
import { countMetrics, type ServiceMetric } from '#lib/log/metrics.ts';
import { QUEUES } from '#lib/manifest/queues.ts';
import type { WorkerDef } from '#lib/manifest/workers.ts';

/** What a record handler gets besides its message. */
export interface RecordWork {
  /** A logger of this message's own: the invocation's context and the message's keys (its correlation id). */
  log: Logger;
  /** How many times SQS has handed this message over (1 the first time). */
  receive: number;
  /** The message's SQS id. */
  messageId: string;
  /** Its receipt as received now: what changes when it comes back (a paused job keeps it, decisions §25). */
  receiptHandle: string;
  context: Context;
}

/** How a record ended when it did not simply succeed. */
export interface RecordResult {
  /** Counts published as the service's metrics. */
  metrics?: Partial<Record<ServiceMetric, number>>;
  /** Not done: the message comes back after this many seconds (the worker must declare `redelivers`). */
  retry?: {
    afterSeconds: number;
    reason: string;
    /**
     * Asked once the redelivery is set: true brings the message back at once (a paused job whose template was let
     * go before its wake could find it). Failing, it is as false: the redelivery stands.
     */
    comeBackNow?: () => Promise<boolean>;
  };
}

/** Changes when a received message comes back (ChangeMessageVisibility); handed in by workers that redeliver. */
export type Redeliver = (queueUrl: string, receiptHandle: string, seconds: number) => Promise<void>;

export interface QueueWorkerOptions<M> {
  /** The keys on every line about one message: at least its correlation id. */
  keysOf: (message: M, record: SQSRecord) => Record<string, string | number>;
  /** Only in the bundles of workers that declare `redelivers`, so no other bundle carries the SQS client. */
  redeliver?: Redeliver;
}

/** A record a handler left for later; the batch reports it failed so SQS keeps it. */
export class RecordNotDone extends Error {}

/** The queue a worker consumes and the URL it redelivers on, checked against its options once. */
function consumedQueue(worker: WorkerDef, options: QueueWorkerOptions<unknown>) {
  if (!('queue' in worker.trigger)) throw new Error(`${worker.name} is not a queue consumer`);
  const { queue, redelivers } = worker.trigger;
  if (redelivers && !options.redeliver) throw new Error(`${worker.name} redelivers: pass the redelivery function`);
  return () => {
    const setting = QUEUES[queue].urlSetting;
    return loadConfig(setting)[setting];
  };
}

/** A message whose body is not its worker's `body`: it fails as an unreadable one does. */
export class MessageRefused extends Error {}

/**
 * A message's body, checked against its worker's `body` schema and handed over as sent. A body of another shape
 * never becomes right, so it is logged and failed like an unreadable one: it comes back until the queue's
 * maxReceiveCount moves it to the dead-letter queue, where it can be looked at (a dead-letter queue's own
 * consumer leaves it there).
 */
function readBody<M>(worker: WorkerDef, record: SQSRecord, context: Context): M {
  const body: unknown = JSON.parse(record.body);
  if (!worker.body) return body as M;
  const read = v.safeParse(worker.body, body);
  if (read.success) return body as M;
  const issues = read.issues.slice(0, 5).map((issue) => `${v.getDotPath(issue) ?? '(body)'}: ${issue.message}`);
  workLogger({ request_id: context.awsRequestId, message_id: record.messageId }, context).error('message body refused', {
    worker: worker.name,
    issues,
  });
  throw new MessageRefused(`${worker.name}: the message's body is not its worker's`);
}

/** One message as its handler sees it: its body, logger and receive count. */
function recordWork<M>(worker: WorkerDef, record: SQSRecord, context: Context, options: QueueWorkerOptions<M>) {
  const message = readBody<M>(worker, record, context);
  const log = workLogger({ request_id: context.awsRequestId, ...options.keysOf(message, record) }, context);
  const work: RecordWork = {
    log,
    receive: Number(record.attributes.ApproximateReceiveCount ?? 1),
    messageId: record.messageId,
    receiptHandle: record.receiptHandle,
    context,
  };
  return { message, work };
}

/**
 * What a handler's result means for its message: metrics counted, and a retry thrown as RecordNotDone after
 * the message is set to come back sooner (or later) than the queue's visibility timeout, as the handler says.
 * A failure to say so leaves the queue's own timeout in charge.
 */
async function settleRecord(
  result: RecordResult | undefined,
  record: SQSRecord,
  log: Logger,
  queueUrl: () => string,
  redeliver: Redeliver | undefined,
) {
  if (result?.metrics) countMetrics(result.metrics);
  if (!result?.retry) return;
  if (!redeliver) throw new RecordNotDone(result.retry.reason);
  const comeBackIn = (seconds: number) =>
    redeliver(queueUrl(), record.receiptHandle, seconds).catch((error: unknown) =>
      log.warn('could not set when the message comes back', { error: (error as Error).name }),
    );
  await comeBackIn(Math.max(0, Math.round(result.retry.afterSeconds)));
  if (result.retry.comeBackNow && (await result.retry.comeBackNow().catch(() => false))) await comeBackIn(0);
  throw new RecordNotDone(result.retry.reason);
}

/**
 * A queue worker: its manifest entry (lib/manifest/workers.ts) plus one record handler, the twin of `httpFunction`.
 * This owns the plumbing every consumer repeats: the batch (partial failures reported to the event source),
 * the JSON body checked against the worker's `body`, a logger per invocation and per message, metrics, and redelivery on the manifest's queue.
 */
export function queueWorker<M>(
  worker: WorkerDef,
  handleRecord: (message: M, work: RecordWork) => Promise<RecordResult | undefined> | RecordResult | undefined,
  options: QueueWorkerOptions<M>,
) {
  const queueUrl = consumedQueue(worker, options as QueueWorkerOptions<unknown>);
  const handleOne = async (record: SQSRecord, context: Context) => {
    const { message, work } = recordWork(worker, record, context, options);
    await settleRecord(await handleRecord(message, work), record, work.log, queueUrl, options.redeliver);
  };
  // A processor per invocation: it keeps the batch's successes and failures while its records run, and
  // invocations that overlap in one process (the local stack runs a worker's invocations side by side) would
  // otherwise report each other's (a job to retry reported done, and deleted: found with four jobs a batch).
  // A batch whose every message comes back is reported, not thrown: a dispatcher handing its job back after a
  // slice is the usual case, not an error of the function (its Errors alarm would ring every few seconds).
  return (event: SQSEvent, context: Context) =>
    inInvocation(context, {}, () =>
      processPartialResponse(event, (record: SQSRecord) => handleOne(record, context), new BatchProcessor(EventType.SQS), {
        context,
        throwOnFullBatchFailure: false,
      }),
    );
}

/**
 * A queue worker whose handler takes the batch's messages together, for work that is cheaper done at once
 * (statuses of one send counted in one write). Its results answer in the messages' order; a message it could
 * not read, a result that asks for a retry, or a handler that throws, fail their messages (they come back).
 */
export function queueBatchWorker<M>(
  worker: WorkerDef,
  handleBatch: (records: { message: M; work: RecordWork }[]) => Promise<(RecordResult | undefined)[]>,
  options: QueueWorkerOptions<M>,
) {
  const queueUrl = consumedQueue(worker, options as QueueWorkerOptions<unknown>);
  return (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
    inInvocation(context, {}, async () => {
      const failed: string[] = [];
      const read: { record: SQSRecord; message: M; work: RecordWork }[] = [];
      for (const record of event.Records) {
        try {
          read.push({ record, ...recordWork(worker, record, context, options) });
        } catch {
          failed.push(record.messageId);
        }
      }
      let results: (RecordResult | undefined)[];
      try {
        results = await handleBatch(read.map(({ message, work }) => ({ message, work })));
      } catch (error) {
        read[0]?.work.log.error('batch failed; its messages come back', { error: (error as Error).name, messages: read.length });
        return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
      }
      await Promise.all(
        read.map(({ record, work }, i) =>
          settleRecord(results[i], record, work.log, queueUrl, options.redeliver).catch(() => failed.push(record.messageId)),
        ),
      );
      return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
    });
}
