import * as v from 'valibot';
import { clientIdBody } from './common.ts';

/** `url` is optional here so its absence gets the contract's own message ("url is required"). */
export const SetWebhookBody = v.strictObject({
  url: v.optional(v.pipe(v.string('must be a string'), v.maxLength(2048))),
  client_id: v.optional(clientIdBody),
  active: v.optional(v.boolean('must be a boolean')),
});

export const GetWebhookQuery = v.object({ client_id: v.optional(v.string()) });
