import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/outbox-store.ts';
import { DynamoSendStore } from '#lib/adapters/dynamo/send-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';
import { redeliverIn } from '#lib/adapters/sqs/redelivery.ts';
import { loadConfig } from '#lib/config.ts';
import { applyNotification, type NotifiedChange } from '#lib/domain/meta-notifications.ts';
import { workLogger } from '#lib/log/logger.ts';

/**
 * Applies Meta's notifications, one queued change per message. A message status that overtook the dispatcher
 * (its recipient not settled yet) comes back in a few seconds; anything that fails comes back after the
 * queue's visibility timeout, and after 10 receives goes to the dead-letter queue.
 */
const processor = new BatchProcessor(EventType.SQS);
const stores = {
  records: new DynamoTemplateRecordStore(),
  sends: new DynamoSendStore(),
  outbox: new DynamoOutboxStore(),
  publisher: new EventBridgePublisher(),
};
const RETRY_UNSETTLED_SECONDS = 2;

export class NotificationNotApplied extends Error {}

export const handler = async (event: SQSEvent, context: Context) => {
  const apply = async (record: SQSRecord) => {
    const change = JSON.parse(record.body) as NotifiedChange;
    const log = workLogger(
      {
        request_id: context.awsRequestId,
        correlation_id: change.correlation_id ?? record.messageId,
        waba_id: change.waba_id,
        field: change.field,
      },
      context,
    );
    const notifications = notificationsOf(change);
    if (notifications.length === 0) log.warn('meta notification not understood; ignored', { field: change.field });
    let later = 0;
    for (const notification of notifications) {
      const outcome = await applyNotification({ ...stores, log }, notification, undefined, change.correlation_id);
      if (outcome === 'later') later++;
    }
    log.info('meta notification applied', { notifications: notifications.length, later });
    if (later > 0) {
      // Applying again is harmless: what was applied is a repeat and changes nothing.
      await redeliverIn(loadConfig('META_QUEUE_URL').META_QUEUE_URL, record.receiptHandle, RETRY_UNSETTLED_SECONDS).catch((error) =>
        log.warn('could not shorten the redelivery of a notification', { error: (error as Error).name }),
      );
      throw new NotificationNotApplied(`${later} message statuses arrived before their messages were recorded`);
    }
  };
  return processPartialResponse(event, apply, processor, { context });
};
