import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { DynamoPacer } from '#lib/adapters/dynamo/pacer.ts';
import { DynamoSendStore } from '#lib/adapters/dynamo/send-store.ts';
import { redeliverIn } from '#lib/adapters/sqs/redelivery.ts';
import { loadConfig, messagesPerSecond } from '#lib/config.ts';
import { DEFAULT_DISPATCH, dispatchJob } from '#lib/domain/dispatch.ts';
import type { DispatchJob } from '#lib/domain/dispatch-job.ts';
import { workLogger } from '#lib/log/logger.ts';
import { countMetrics } from '#lib/log/metrics.ts';
import { errorForLog } from '#lib/log/source-mapped-stack.ts';
import { graphMessages } from '#lib/wiring/upstream.ts';

/**
 * The dispatcher: consumes dispatch jobs (docs/dispatch-jobs.md), one job per invocation. A job that is not
 * finished (its send still queuing, recipients held by another invocation, the invocation's time up) is
 * reported failed and comes back after the queue's visibility timeout; what it settled stays settled.
 */
const processor = new BatchProcessor(EventType.SQS);
const stores = { sends: new DynamoSendStore(), pacer: new DynamoPacer() };
const clock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };

export class JobNotFinished extends Error {}

export const handler = async (event: SQSEvent, context: Context) => {
  const settings = { ...DEFAULT_DISPATCH, messagesPerSecond: messagesPerSecond() };
  const dispatch = async (record: SQSRecord) => {
    const job = JSON.parse(record.body) as DispatchJob;
    // Every line of this job names its send: the correlation id from the request that accepted it.
    const log = workLogger({ request_id: context.awsRequestId, send_id: job.send_id, correlation_id: job.send_id, job: job.job }, context);
    let result: Awaited<ReturnType<typeof dispatchJob>>;
    try {
      result = await dispatchJob(
        {
          ...stores,
          log,
          upstream: graphMessages(),
          clock,
          settings,
          holder: `${context.awsRequestId}:${record.messageId}`,
          remainingMs: () => context.getRemainingTimeInMillis(),
          onSettled: ({ sent, failed }) => countMetrics({ MessagesDispatched: sent, MessagesFailed: failed }),
        },
        job,
      );
    } catch (error) {
      log.error('dispatch job failed; it comes back after the visibility timeout', { error: errorForLog(error) });
      throw error;
    }
    log.info('dispatch job', { jobs: job.jobs, ...result });
    if (result.outcome === 'retry_later') {
      // Back sooner than the queue's visibility timeout (sized for a whole job), when the reason allows.
      await redeliverIn(loadConfig('DISPATCH_QUEUE_URL').DISPATCH_QUEUE_URL, record.receiptHandle, result.afterSeconds).catch((error) =>
        log.warn('could not shorten the redelivery of a dispatch job', { error: (error as Error).name }),
      );
      throw new JobNotFinished(result.reason);
    }
  };
  return processPartialResponse(event, dispatch, processor, { context });
};
