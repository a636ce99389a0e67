import * as v from 'valibot';
import { clientIdBody, wholeNumberParam } from './common.ts';

/** `url` is optional here so its absence gets the contract's own message ("url is required"). */
export const SetWebhookBody = v.strictObject({
  url: v.optional(v.pipe(v.string('must be a string'), v.maxLength(2048))),
  client_id: v.optional(clientIdBody),
  active: v.optional(v.boolean('must be a boolean')),
});

export const GetWebhookQuery = v.object({ client_id: v.optional(v.string()) });

export const RotateSecretBody = v.strictObject({ client_id: v.optional(clientIdBody) });

export const ListDeliveriesQuery = v.object({
  client_id: v.optional(wholeNumberParam),
  status: v.optional(v.picklist(['pending', 'delivered', 'failed', 'skipped'], 'must be pending, delivered, failed or skipped')),
  page: v.optional(wholeNumberParam),
  size: v.optional(wholeNumberParam),
});

/** A delivery's id is its event's: a UUID. */
export const DeliveryIdPath = v.object({ id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a delivery id')) });
