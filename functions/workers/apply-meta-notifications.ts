import { DynamoOutboxStore } from '#lib/adapters/dynamo/outbox-store.ts';
import { DynamoSendStore } from '#lib/adapters/dynamo/send-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';
import { redeliverIn } from '#lib/adapters/sqs/redelivery.ts';
import { applyNotification, type NotifiedChange } from '#lib/domain/meta-notifications.ts';
import { queueWorker } from '#lib/worker/queue-worker.ts';
import { ApplyMetaNotifications } from '#lib/workers.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * Applies Meta's notifications, one queued change per message. A message status that overtook the dispatcher
 * (its recipient not settled yet) comes back in a few seconds; anything that fails comes back after the
 * queue's visibility timeout, and after 10 receives goes to the dead-letter queue.
 */
const stores = {
  records: new DynamoTemplateRecordStore(table),
  sends: new DynamoSendStore(table),
  outbox: new DynamoOutboxStore(table),
  publisher: new EventBridgePublisher(),
};
const RETRY_UNSETTLED_SECONDS = 2;

export const handler = queueWorker<NotifiedChange>(
  ApplyMetaNotifications,
  async (change, { log }) => {
    const notifications = notificationsOf(change);
    if (notifications.length === 0) log.warn('meta notification not understood; ignored', { field: change.field });
    let later = 0;
    for (const notification of notifications) {
      const outcome = await applyNotification({ ...stores, log }, notification, undefined, change.correlation_id);
      if (outcome === 'later') later++;
    }
    log.info('meta notification applied', { notifications: notifications.length, later });
    // Applying again is harmless: what was applied is a repeat and changes nothing.
    if (later > 0)
      return {
        retry: { afterSeconds: RETRY_UNSETTLED_SECONDS, reason: `${later} message statuses arrived before their messages were recorded` },
      };
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
