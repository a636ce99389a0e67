import { DynamoDeliveryLog } from '#lib/adapters/dynamo/webhooks/webhook-delivery-log.ts';
import { DynamoWebhookConfigStore } from '#lib/adapters/dynamo/webhooks/webhook-store.ts';
import { guardedHttpsPost, localHttpPost, standardWebhookSender } from '#lib/adapters/https/webhook-transport.ts';
import { redeliverIn } from '#lib/adapters/sqs/redelivery.ts';
import { allowLocalWebhooks, webhookRetryBaseSeconds } from '#lib/config.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import { deliverEvent } from '#lib/domain/webhooks/webhook-delivery.ts';
import { QUEUES } from '#lib/manifest/queues.ts';
import { queueWorker } from '#lib/worker/queue-worker.ts';
import { DeliverWebhooks } from '#lib/manifest/workers.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * Consumes the EventBridge rule's queue (and replays) and POSTs each event to its client's webhook, keeping the
 * delivery log. A failed message is hidden for an exponentially growing time before its next try; after the
 * queue's maxReceiveCount (more than 24 hours of tries) the log says `failed` and the message moves to the
 * dead-letter queue: none is dropped silently.
 */
const deps = {
  configs: new DynamoWebhookConfigStore(table),
  log: new DynamoDeliveryLog(table),
  sender: standardWebhookSender(guardedHttpsPost, allowLocalWebhooks() ? localHttpPost : undefined),
  allowLocalReceivers: allowLocalWebhooks(),
};

type Envelope = { detail: ServiceEvent; replay?: boolean };

export const handler = queueWorker<Envelope>(
  DeliverWebhooks,
  async ({ detail: serviceEvent, replay }, { log, receive }) => {
    const result = await deliverEvent(deps, serviceEvent, {
      receive,
      maxReceives: QUEUES.webhookEvents.maxReceiveCount,
      retryBaseSeconds: webhookRetryBaseSeconds(),
      now: new Date(),
      replay: replay === true,
    });
    log.info('webhook event handled', { type: serviceEvent.type, receive, replay: replay === true, ...result });
    const metrics = {
      WebhooksDelivered: result.outcome === 'delivered' ? 1 : 0,
      WebhookDeliveriesFailed: result.outcome === 'failed' ? 1 : 0,
    };
    // A last failure comes back at once, and SQS moves it to the dead-letter queue on that receive.
    if (result.outcome === 'retry') return { metrics, retry: { afterSeconds: result.afterSeconds, reason: result.reason } };
    if (result.outcome === 'failed') return { metrics, retry: { afterSeconds: 0, reason: result.reason } };
    return { metrics };
  },
  {
    // Every line of this delivery names the request that caused the event.
    keysOf: ({ detail }) => ({ correlation_id: detail.correlation_id ?? detail.id, event_id: detail.id, client_id: detail.client_id }),
    redeliver: redeliverIn,
  },
);
