import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { redeliverIn } from '#lib/adapters/sqs/redelivery.ts';
import { loadConfig } from '#lib/config.ts';
import { DynamoWebhookConfigStore } from '#lib/adapters/dynamo/webhook-store.ts';
import { deliverEvent, retryDelaySeconds } from '#lib/domain/webhook-delivery.ts';
import type { ServiceEvent } from '#lib/domain/events.ts';
import { logger } from '#lib/log/logger.ts';
import { standardWebhookSender } from '#lib/adapters/https/webhook-transport.ts';

/**
 * Consumes the EventBridge rule's queue and POSTs each event to its client's webhook. A failed message is
 * hidden for an exponentially growing time before its next try and, after the queue's maxReceiveCount
 * (more than 24 hours of tries), moves to the dead-letter queue: none is dropped silently.
 */
const processor = new BatchProcessor(EventType.SQS);
const deps = { configs: new DynamoWebhookConfigStore(), sender: standardWebhookSender() };

async function deliver(record: SQSRecord) {
  const envelope = JSON.parse(record.body) as { detail: ServiceEvent };
  const event = envelope.detail;
  try {
    const outcome = await deliverEvent(deps, event);
    logger.info('webhook event handled', { event_id: event.id, type: event.type, client_id: event.client_id, outcome });
  } catch (error) {
    const receives = Number(record.attributes.ApproximateReceiveCount ?? 1);
    const delay = retryDelaySeconds(receives);
    logger.warn('webhook delivery failed; will retry', {
      event_id: event.id,
      client_id: event.client_id,
      receives,
      retry_in_s: delay,
      reason: (error as Error).message,
    });
    await redeliverIn(loadConfig('WEBHOOK_QUEUE_URL').WEBHOOK_QUEUE_URL, record.receiptHandle, delay).catch((e: unknown) =>
      logger.warn('could not set the retry delay', { error: String(e) }),
    );
    throw error;
  }
}

export const handler = async (event: SQSEvent, context: Context) => processPartialResponse(event, deliver, processor, { context });
