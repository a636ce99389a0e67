import * as v from 'valibot';
import { clientIdBody, clientIdParam, count, pageOf, timestamp, wholeNumberParam } from './common.ts';

export const SetWebhookBody = v.strictObject({
  url: v.pipe(v.string('must be a string'), v.maxLength(2048)),
  client_id: v.optional(clientIdBody),
  active: v.optional(v.boolean('must be a boolean')),
});

export const GetWebhookQuery = v.object({ client_id: v.optional(clientIdParam) });

export const RotateSecretBody = v.strictObject({ client_id: v.optional(clientIdBody) });

export const ListDeliveriesQuery = v.object({
  client_id: v.optional(clientIdParam),
  status: v.optional(v.picklist(['pending', 'delivered', 'failed', 'skipped'], 'must be pending, delivered, failed or skipped')),
  page: v.optional(wholeNumberParam),
  size: v.optional(wholeNumberParam),
});

/** A delivery's id is its event's: a UUID. */
export const DeliveryIdPath = v.object({ id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a delivery id')) });

/** A client's webhook configuration (spec §11, decisions §15); the signing secret only to its own client. */
export const WebhookConfigResponse = v.object({
  client_id: v.number(),
  url: v.string(),
  active: v.boolean(),
  signing_secret: v.optional(v.string()),
  previous_secret_expires_at: v.optional(timestamp),
});

const DeliveryView = v.object({
  id: v.string(),
  event_id: v.string(),
  type: v.string(),
  status: v.picklist(['pending', 'delivered', 'failed', 'skipped']),
  attempts: count,
  last_status_code: v.optional(v.number()),
  last_error: v.optional(v.string()),
  next_attempt_at: v.optional(timestamp),
  created_at: timestamp,
  delivered_at: v.optional(timestamp),
});
export const ListDeliveriesResponse = pageOf(DeliveryView);
export const ReplayDeliveryResponse = v.object({ id: v.string(), status: v.literal('pending') });
