import { redeliverIn } from '#lib/adapters/sqs/redelivery.ts';
import { queueBatchWorker } from '#lib/worker/queue-worker.ts';
import { ApplyMetaNotifications } from '#lib/manifest/workers.ts';
import { unsettledRetrySeconds } from '#lib/wiring/notification-ports.ts';
import { applyQueued, isGivenUpBatch, type QueuedNotification } from '#lib/wiring/redriven-statuses.ts';

/** How long a batch of the statuses' stream waits when the stream could not be read for it. */
const UNREAD_RETRY_SECONDS = 60;

/**
 * Applies Meta's notifications, a batch of queued changes at once: the statuses of one send are counted in
 * one write per batch (decisions §19). A message status that overtook the dispatcher (its block not settled
 * yet) comes back in seconds, then less often (unsettledRetrySeconds): the statuses' stream worker puts such a
 * status here (issue 54). A batch of that stream given up on, redriven here from the dead-letter queue, is read
 * again from the stream and its statuses applied. Anything that fails comes back after the queue's visibility
 * timeout, and after 10 receives goes to the dead-letter queue. Applying again is harmless: a repeat changes nothing.
 */
export const handler = queueBatchWorker<QueuedNotification>(
  ApplyMetaNotifications,
  async (records) => {
    const tallies = await applyQueued(records.map(({ message, work }) => ({ message, log: work.log })));
    return records.map(({ work }, record) => {
      const { notifications, later, unread } = tallies[record];
      work.log.info('meta notification applied', { notifications, later });
      if (unread) return { retry: { afterSeconds: UNREAD_RETRY_SECONDS, reason: 'its stream’s records could not be read' } };
      return later > 0
        ? {
            retry: {
              afterSeconds: unsettledRetrySeconds(work.receive),
              reason: `${later} message statuses arrived before their messages were recorded`,
            },
          }
        : undefined;
    });
  },
  {
    keysOf: (change, record): Record<string, string> =>
      isGivenUpBatch(change)
        ? { correlation_id: record.messageId, shard: change.KinesisBatchInfo.shardId }
        : { correlation_id: change.correlation_id ?? record.messageId, waba_id: change.waba_id, field: change.field },
    redeliver: redeliverIn,
  },
);
