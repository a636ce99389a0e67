import { DynamoSendStore } from '#lib/adapters/dynamo/send-store.ts';
import { releaseScheduledSend } from '#lib/domain/release-send.ts';
import { queueWorker } from '#lib/worker/queue-worker.ts';
import { ReleaseScheduledSends } from '#lib/manifest/workers.ts';
import { jobQueue } from '#lib/wiring/queues.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const sends = new DynamoSendStore(serviceTable());
const queue = jobQueue('dispatch');

/** A scheduled send's time came: EventBridge Scheduler put `{send_id}` on the release queue (decisions §22). */
export const handler = queueWorker<{ send_id: string }>(
  ReleaseScheduledSends,
  async ({ send_id }, { log }) => {
    const result = await releaseScheduledSend({ sends, queue, log }, send_id);
    return result === 'released' ? { metrics: { ScheduledSendsReleased: 1 } } : undefined;
  },
  { keysOf: (message) => ({ send_id: message.send_id, correlation_id: message.send_id }) },
);
