import * as v from 'valibot';
import { EVENT_TYPES } from '#lib/domain/webhooks/events.ts';

/**
 * The bodies of the queues' messages, as their workers read them (lib/manifest/workers.ts `body`): what each
 * worker's use case needs of a message is there, of its type. They check and never change a message (loose
 * objects, no transform or default): the worker hands its use case the message as it was sent, or refuses it
 * (lib/worker/queue-worker.ts).
 */

const text = v.string();
const whole = v.pipe(v.number(), v.integer());

/** A template sync job (lib/domain/templates/sync.ts SyncJob), on the sync queue and its dead-letter queue. */
export const SyncJobMessage = v.looseObject({
  client_id: whole,
  lease_id: text,
  requested_at: v.optional(text),
  request_id: v.optional(text),
});

const JobRecipient = v.looseObject({
  to: v.optional(text),
  user_id: v.optional(text),
  params: v.optional(v.looseObject({})),
  duplicate_of: v.optional(whole),
  suppressed: v.optional(v.literal(true)),
  cap_keys: v.optional(v.array(text)),
});

/** A dispatch job (lib/domain/sends/dispatch-job.ts DispatchJob), on the dispatch queue and its dead-letter queue. */
export const DispatchJobMessage = v.looseObject({
  send_id: text,
  client_id: whole,
  did: text,
  waba_id: text,
  phone_number_id: v.optional(text),
  namespace: v.optional(text),
  channel: v.literal('MSGCHAN'),
  template: v.looseObject({
    name: text,
    language: text,
    id: text,
    category: v.optional(text),
    components: v.array(v.looseObject({})),
  }),
  total_contacts: whole,
  component: v.optional(v.looseObject({ header: v.looseObject({ type: text }) })),
  attends: v.optional(v.looseObject({})),
  allow_duplicates: v.optional(v.boolean()),
  message_send_ttl_seconds: v.optional(v.number()),
  campaignId: v.optional(v.number()),
  marketing_api: v.optional(v.literal('mm')),
  max_price: v.optional(v.looseObject({ amount_per_1000: v.number(), currency: text })),
  frequency_cap: v.optional(v.looseObject({ max: whole, days: whole })),
  reservation: v.optional(v.looseObject({ month: text, priced_on: text, category: text, currency: text })),
  job: whole,
  jobs: whole,
  first_index: whole,
  recipients: v.array(JobRecipient),
});

/** One of Meta's webhook changes as the webhook route queued it (lib/domain/inbound/notifications.ts NotifiedChange). */
export const NotifiedChangeMessage = v.looseObject({
  waba_id: text,
  correlation_id: v.optional(text),
  at: v.number(),
  field: text,
  value: v.unknown(),
});

/**
 * What Lambda's Kinesis event source puts on its on-failure destination when it gives a batch up after its retries
 * (issue 54: the statuses' stream names the notifications' dead-letter queue): not the records, but where they are,
 * a shard and the first and last sequence numbers of the batch. Redriven to the notifications queue, its records are
 * read again from the stream (kept 24 hours) and applied (docs/operations.md, "Redriving the statuses").
 */
export const StreamBatchGivenUpMessage = v.looseObject({
  requestContext: v.looseObject({ condition: text }),
  KinesisBatchInfo: v.looseObject({
    shardId: text,
    startSequenceNumber: text,
    endSequenceNumber: text,
    batchSize: v.pipe(whole, v.minValue(1)),
    streamArn: text,
  }),
});

/** A Meta notification queued by the webhook route or the statuses' worker, or a batch of statuses given up on. */
export const MetaNotificationsMessage = v.union([NotifiedChangeMessage, StreamBatchGivenUpMessage]);

/** A service event as EventBridge's rule puts it on the webhook-events queue (its `detail`), or a replay of one. */
export const WebhookEventMessage = v.looseObject({
  detail: v.looseObject({
    id: text,
    type: v.picklist(EVENT_TYPES),
    occurred_at: text,
    client_id: whole,
    data: v.looseObject({}),
    correlation_id: v.optional(text),
  }),
  replay: v.optional(v.boolean()),
});

/**
 * EventBridge Scheduler's message at a scheduled send's time (decisions §22), or at a test-first send's decision
 * (`step: "decide"`, decisions §33).
 */
export const SendReleaseMessage = v.looseObject({ send_id: text, step: v.optional(v.literal('decide')) });
