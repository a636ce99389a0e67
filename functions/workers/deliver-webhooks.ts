import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { DynamoDeliveryLog } from '#lib/adapters/dynamo/delivery-log.ts';
import { DynamoWebhookConfigStore } from '#lib/adapters/dynamo/webhook-store.ts';
import { guardedHttpsPost, localHttpPost, standardWebhookSender } from '#lib/adapters/https/webhook-transport.ts';
import { redeliverIn } from '#lib/adapters/sqs/redelivery.ts';
import { allowLocalWebhooks, loadConfig, webhookRetryBaseSeconds } from '#lib/config.ts';
import type { ServiceEvent } from '#lib/domain/events.ts';
import { deliverEvent } from '#lib/domain/webhook-delivery.ts';
import { workLogger } from '#lib/log/logger.ts';
import { countMetrics } from '#lib/log/metrics.ts';
import { QUEUES } from '#lib/queues.ts';

/**
 * Consumes the EventBridge rule's queue (and replays) and POSTs each event to its client's webhook, keeping the
 * delivery log. A failed message is hidden for an exponentially growing time before its next try; after the
 * queue's maxReceiveCount (more than 24 hours of tries) the log says `failed` and the message moves to the
 * dead-letter queue: none is dropped silently.
 */
const processor = new BatchProcessor(EventType.SQS);
const deps = {
  configs: new DynamoWebhookConfigStore(),
  log: new DynamoDeliveryLog(),
  sender: standardWebhookSender(guardedHttpsPost, allowLocalWebhooks() ? localHttpPost : undefined),
  allowLocalReceivers: allowLocalWebhooks(),
};

export class DeliveryNotDone extends Error {}

export const handler = async (event: SQSEvent, context: Context) => {
  const deliver = async (record: SQSRecord) => {
    const envelope = JSON.parse(record.body) as { detail: ServiceEvent; replay?: boolean };
    const serviceEvent = envelope.detail;
    // Every line of this delivery names the request that caused the event.
    const log = workLogger(
      {
        request_id: context.awsRequestId,
        correlation_id: serviceEvent.correlation_id ?? serviceEvent.id,
        event_id: serviceEvent.id,
        client_id: serviceEvent.client_id,
      },
      context,
    );
    const receive = Number(record.attributes.ApproximateReceiveCount ?? 1);
    const result = await deliverEvent(deps, serviceEvent, {
      receive,
      maxReceives: QUEUES.webhookEvents.maxReceiveCount,
      retryBaseSeconds: webhookRetryBaseSeconds(),
      now: new Date(),
      replay: envelope.replay === true,
    });
    log.info('webhook event handled', { type: serviceEvent.type, receive, replay: envelope.replay === true, ...result });
    countMetrics({
      WebhooksDelivered: result.outcome === 'delivered' ? 1 : 0,
      WebhookDeliveriesFailed: result.outcome === 'failed' ? 1 : 0,
    });
    if (result.outcome === 'retry' || result.outcome === 'failed') {
      // A last failure comes back at once, and SQS moves it to the dead-letter queue on that receive.
      const afterSeconds = result.outcome === 'retry' ? result.afterSeconds : 0;
      await redeliverIn(loadConfig('WEBHOOK_QUEUE_URL').WEBHOOK_QUEUE_URL, record.receiptHandle, Math.round(afterSeconds)).catch(
        (e: unknown) => log.warn('could not set the retry delay', { error: String(e) }),
      );
      throw new DeliveryNotDone(result.reason);
    }
  };
  return processPartialResponse(event, deliver, processor, { context });
};
