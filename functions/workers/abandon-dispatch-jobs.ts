import { DynamoSendStore } from '#lib/adapters/dynamo/send-store.ts';
import { abandonJob } from '#lib/domain/sending/abandon-job.ts';
import type { DispatchJob } from '#lib/domain/sending/job.ts';
import { queueWorker } from '#lib/worker/queue-worker.ts';
import { AbandonDispatchJobs } from '#lib/manifest/workers.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const sends = new DynamoSendStore(serviceTable());
const clock = { now: () => Date.now() };

/**
 * The dispatch dead-letter queue's consumer: each job there settles its unsent recipients `dispatch_abandoned`
 * so its send completes (lib/domain/sending/abandon-job.ts); one counted in `DispatchJobsAbandoned`.
 */
export const handler = queueWorker<DispatchJob>(
  AbandonDispatchJobs,
  async (job, { log, context, messageId }) => {
    const result = await abandonJob({ sends, clock, log, holder: `abandon:${context.awsRequestId}:${messageId}` }, job);
    log.info('dispatch job given up on', { ...result });
    if (result.outcome === 'retry_later') return { retry: { afterSeconds: result.afterSeconds, reason: result.reason } };
    return { metrics: { DispatchJobsAbandoned: 1 } };
  },
  { keysOf: (job) => ({ send_id: job.send_id, correlation_id: job.send_id, job: job.job }) },
);
