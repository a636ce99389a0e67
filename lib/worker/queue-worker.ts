import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { loadConfig } from '#lib/config.ts';
import { inInvocation, workLogger } from '#lib/log/logger.ts';
import { countMetrics, type ServiceMetric } from '#lib/log/metrics.ts';
import { QUEUES } from '#lib/queues.ts';
import type { WorkerDef } from '#lib/workers.ts';

/** What a record handler gets besides its message. */
export interface RecordWork {
  /** A logger of this message's own: the invocation's context and the message's keys (its correlation id). */
  log: Logger;
  /** How many times SQS has handed this message over (1 the first time). */
  receive: number;
  /** The message's SQS id. */
  messageId: string;
  context: Context;
}

/** How a record ended when it did not simply succeed. */
export interface RecordResult {
  /** Counts published as the service's metrics. */
  metrics?: Partial<Record<ServiceMetric, number>>;
  /** Not done: the message comes back after this many seconds (the worker must declare `redelivers`). */
  retry?: { afterSeconds: number; reason: string };
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

/**
 * A queue worker: its manifest entry (lib/workers.ts) plus one record handler, the twin of `httpFunction`.
 * This owns the plumbing every consumer repeats: the batch (partial failures reported to the event source),
 * the JSON body, a logger per invocation and per message, metrics, and redelivery on the manifest's queue.
 */
export function queueWorker<M>(
  worker: WorkerDef,
  handleRecord: (message: M, work: RecordWork) => Promise<RecordResult | undefined> | RecordResult | undefined,
  options: QueueWorkerOptions<M>,
) {
  if (!('queue' in worker.trigger)) throw new Error(`${worker.name} is not a queue consumer`);
  const { queue, redelivers } = worker.trigger;
  if (redelivers && !options.redeliver) throw new Error(`${worker.name} redelivers: pass the redelivery function`);
  const processor = new BatchProcessor(EventType.SQS);
  const queueUrl = () => {
    const setting = QUEUES[queue].urlSetting;
    return loadConfig(setting)[setting];
  };

  const handleOne = async (record: SQSRecord, context: Context) => {
    const message = JSON.parse(record.body) as M;
    const log = workLogger({ request_id: context.awsRequestId, ...options.keysOf(message, record) }, context);
    const work = { log, receive: Number(record.attributes.ApproximateReceiveCount ?? 1), messageId: record.messageId, context };
    const result = await handleRecord(message, work);
    if (result?.metrics) countMetrics(result.metrics);
    if (!result?.retry) return;
    if (!options.redeliver) throw new RecordNotDone(result.retry.reason);
    // Back sooner (or later) than the queue's visibility timeout, as the handler says; a failure to say so
    // leaves the queue's own timeout in charge.
    await options
      .redeliver(queueUrl(), record.receiptHandle, Math.max(0, Math.round(result.retry.afterSeconds)))
      .catch((error: unknown) => log.warn('could not set when the message comes back', { error: (error as Error).name }));
    throw new RecordNotDone(result.retry.reason);
  };

  return (event: SQSEvent, context: Context) =>
    inInvocation(context, {}, () =>
      processPartialResponse(event, (record: SQSRecord) => handleOne(record, context), processor, { context }),
    );
}
