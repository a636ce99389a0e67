import { redeliverIn } from '#lib/adapters/sqs/redelivery.ts';
import type { NotifiedChange } from '#lib/domain/inbound/notifications.ts';
import { queueBatchWorker } from '#lib/worker/queue-worker.ts';
import { ApplyMetaNotifications } from '#lib/manifest/workers.ts';
import { applyChanges, unsettledRetrySeconds } from '#lib/wiring/notification-ports.ts';

/**
 * Applies Meta's notifications, a batch of queued changes at once: the statuses of one send are counted in
 * one write per batch (decisions §19). A message status that overtook the dispatcher (its block not settled
 * yet) comes back in seconds, then less often (unsettledRetrySeconds): the statuses' stream worker puts such a
 * status here (issue 54). Anything that fails comes back after the queue's visibility timeout, and after 10
 * receives goes to the dead-letter queue. Applying again is harmless: a repeat changes nothing.
 */
export const handler = queueBatchWorker<NotifiedChange>(
  ApplyMetaNotifications,
  async (records) => {
    const tallies = await applyChanges(records.map(({ message, work }) => ({ message, log: work.log })));
    return records.map(({ work }, record) => {
      const { notifications, later } = tallies[record];
      work.log.info('meta notification applied', { notifications, later });
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
    keysOf: (change, record) => ({
      correlation_id: change.correlation_id ?? record.messageId,
      waba_id: change.waba_id,
      field: change.field,
    }),
    redeliver: redeliverIn,
  },
);
