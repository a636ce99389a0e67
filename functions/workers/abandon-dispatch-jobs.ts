import { DynamoBlockLedger } from '#lib/adapters/dynamo/sends/block-ledger.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { DynamoSendPerformances } from '#lib/adapters/dynamo/sends/send-performances.ts';
import { DynamoSendCompletions } from '#lib/adapters/dynamo/sends/send-completions.ts';
import { abandonJob } from '#lib/domain/sends/dispatch/abandon-job.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { queueWorker } from '#lib/worker/queue-worker.ts';
import { AbandonDispatchJobs } from '#lib/manifest/workers.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();
const sends = new DynamoSendRecords(table);
const blocks = new DynamoBlockLedger(table);
const clock = { now: () => Date.now() };
// Its send's `send.completed` (decisions §33), in the outbox with its mark: the relay publishes it.
const completion = { performances: new DynamoSendPerformances(table), completions: new DynamoSendCompletions(table) };

/**
 * The dispatch dead-letter queue's consumer: each job there settles its unsent recipients `dispatch_abandoned`
 * so its send completes (lib/domain/sends/dispatch/abandon-job.ts); one counted in `DispatchJobsAbandoned`.
 */
export const handler = queueWorker<DispatchJob>(
  AbandonDispatchJobs,
  async (job, { log, context, messageId }) => {
    const result = await abandonJob({ sends, blocks, clock, log, completion, holder: `abandon:${context.awsRequestId}:${messageId}` }, job);
    log.info('dispatch job given up on', { ...result });
    if (result.outcome === 'retry_later') return { retry: { afterSeconds: result.afterSeconds, reason: result.reason } };
    return { metrics: { DispatchJobsAbandoned: 1 } };
  },
  { keysOf: (job) => ({ send_id: job.send_id, correlation_id: job.send_id, job: job.job }) },
);
