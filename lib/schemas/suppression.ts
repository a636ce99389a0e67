import * as v from 'valibot';
import { clientIdBody, clientIdParam, pageOf, wholeNumberParam } from './common.ts';

/** `/v1/suppressions` (decisions §25): a client's opt-outs. */
export const ListSuppressionsQuery = v.object({
  client_id: v.optional(clientIdParam),
  page: v.optional(wholeNumberParam),
  size: v.optional(wholeNumberParam),
});

export const AddSuppressionBody = v.object({
  phone: v.pipe(v.string(), v.minLength(1), v.maxLength(32)),
  reason: v.optional(v.pipe(v.string(), v.maxLength(256))),
  client_id: v.optional(clientIdBody),
});

export const PhonePath = v.object({ phone: v.pipe(v.string(), v.regex(/^\+?[0-9]{6,15}$/, 'must be a phone number (6 to 15 digits)')) });
export const RemoveSuppressionQuery = v.object({ client_id: v.optional(clientIdParam) });

const Suppression = v.object({
  phone: v.string(),
  source: v.picklist(['api', '131050', 'inbound']),
  at: v.string(),
  message_id: v.optional(v.string()),
  reason: v.optional(v.string()),
});

export const ListSuppressionsResponse = pageOf(Suppression);
export const AddSuppressionResponse = v.object({ client_id: v.number(), created: v.boolean(), ...Suppression.entries });
export const GetSuppressionResponse = v.object({ client_id: v.number(), ...Suppression.entries });
export const RemoveSuppressionResponse = v.object({ client_id: v.number(), phone: v.string(), removed: v.literal(true) });
