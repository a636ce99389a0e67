import { DynamoPacer } from '#lib/adapters/dynamo/sends/pacer.ts';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/webhooks/outbox-store.ts';
import { DynamoPausedJobs } from '#lib/adapters/dynamo/sends/paused-jobs.ts';
import { DynamoTemplatePauses } from '#lib/adapters/dynamo/templates/template-pauses.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { DynamoSuppressionStore } from '#lib/adapters/dynamo/people/suppression-store.ts';
import { DynamoMarketingCounts } from '#lib/adapters/dynamo/people/frequency-caps.ts';
import { DynamoBlockLedger } from '#lib/adapters/dynamo/sends/block-ledger.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { DynamoSendPerformances } from '#lib/adapters/dynamo/sends/send-performances.ts';
import { DynamoSendCompletions } from '#lib/adapters/dynamo/sends/send-completions.ts';
import { DynamoThroughputStore } from '#lib/adapters/dynamo/sends/throughput-store.ts';
import { redeliverIn } from '#lib/adapters/sqs/redelivery.ts';
import { sleepOnPause } from '#lib/domain/sends/dispatch/paused-jobs.ts';
import { dispatchJob } from '#lib/domain/sends/dispatch/dispatcher.ts';
import { PAUSED_REASON } from '#lib/domain/sends/dispatch/pauses.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { countMetrics } from '#lib/log/metrics.ts';
import { errorForLog } from '#lib/log/source-mapped-stack.ts';
import { queueWorker } from '#lib/worker/queue-worker.ts';
import { DispatchMessages } from '#lib/manifest/workers.ts';
import { dispatchSettings } from '#lib/wiring/dispatch-settings.ts';
import { graphMessages } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * The dispatcher: consumes dispatch jobs (docs/dispatch-jobs.md), up to four jobs per invocation, side by side. A job that is not
 * finished (its send still queuing, recipients held by another invocation, the invocation's time up) is
 * reported failed and comes back sooner than the queue's visibility timeout when the reason allows; what it
 * settled stays settled.
 */
const stores = {
  sends: new DynamoSendRecords(table),
  blocks: new DynamoBlockLedger(table),
  pacer: new DynamoPacer(table),
  levels: new DynamoThroughputStore(table),
  suppressions: new DynamoSuppressionStore(table),
  marketingCounts: new DynamoMarketingCounts(table),
  pauses: new DynamoTemplatePauses(table),
  events: { publisher: new EventBridgePublisher(), outbox: new DynamoOutboxStore(table) },
  // A send's last job writes its `send.completed` (decisions §33).
  completion: { performances: new DynamoSendPerformances(table), completions: new DynamoSendCompletions(table) },
};
/** The jobs asleep on a paused template, so Meta's resume wakes them (decisions §25). */
const pausedJobs = new DynamoPausedJobs(table);
const clock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };

export const handler = queueWorker<DispatchJob>(
  DispatchMessages,
  async (job, { log, context, messageId, receiptHandle }) => {
    let result: Awaited<ReturnType<typeof dispatchJob>>;
    try {
      result = await dispatchJob(
        {
          ...stores,
          log,
          upstream: graphMessages(),
          clock,
          settings: dispatchSettings(),
          holder: `${context.awsRequestId}:${messageId}`,
          remainingMs: () => context.getRemainingTimeInMillis(),
          // Counted per settled block, so a long job shows its progress in the metrics as it goes.
          onSettled: ({ sent, failed, lateBookings }) =>
            countMetrics({ MessagesDispatched: sent, MessagesFailed: failed, LateSlotBookings: lateBookings }),
        },
        job,
      );
    } catch (error) {
      log.error('dispatch job failed; it comes back after the visibility timeout', { error: errorForLog(error) });
      throw error;
    }
    log.info('dispatch job', { jobs: job.jobs, ...result });
    if (result.outcome !== 'retry_later') return undefined;
    const retry = { afterSeconds: result.afterSeconds, reason: result.reason };
    if (result.reason !== PAUSED_REASON) return { retry };
    // Asleep on its paused template: Meta's resume brings it back before its recheck.
    const asleep = await sleepOnPause({ pausedJobs, pauses: stores.pauses, log }, job, {
      receipt: receiptHandle,
      afterSeconds: result.afterSeconds,
      nowMs: clock.now(),
    });
    return { retry: { ...retry, comeBackNow: asleep.comeBackNow } };
  },
  {
    // Every line of this job names its send: the correlation id from the request that accepted it.
    keysOf: (job) => ({ send_id: job.send_id, correlation_id: job.send_id, job: job.job }),
    redeliver: redeliverIn,
  },
);
