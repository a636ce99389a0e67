import * as v from 'valibot';
import { BSUID } from '#lib/domain/people/person.ts';
import { clientIdBody, clientIdParam, pageOf, wholeNumberParam } from './common.ts';

/** `/v1/suppressions` (decisions §25): a client's opt-outs. */
export const ListSuppressionsQuery = v.object({
  client_id: v.optional(clientIdParam),
  page: v.optional(wholeNumberParam),
  size: v.optional(wholeNumberParam),
});

/** A person by phone number, BSUID (decisions §28) or both: at least one (the use case says which is missing). */
export const AddSuppressionBody = v.strictObject({
  phone: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(32))),
  user_id: v.optional(v.pipe(v.string(), v.maxLength(140), v.regex(BSUID, 'must be a BSUID (CC.[ENT.]alphanumerics)'))),
  reason: v.optional(v.pipe(v.string(), v.maxLength(256))),
  client_id: v.optional(clientIdBody),
});

const PHONE_OR_BSUID = new RegExp(`^(\\+?[0-9]{6,15}|${BSUID.source.slice(1, -1)})$`);
/** A person in a path: a phone number or a BSUID (decisions §28). */
export const PersonPath = v.object({
  person: v.pipe(v.string(), v.maxLength(140), v.regex(PHONE_OR_BSUID, 'must be a phone number (6 to 15 digits) or a BSUID')),
});
export const RemoveSuppressionQuery = v.object({ client_id: v.optional(clientIdParam) });

const Suppression = v.object({
  phone: v.optional(v.string()),
  user_id: v.optional(v.string()),
  source: v.picklist(['api', '131050', 'inbound', 'meta_preferences']),
  at: v.string(),
  message_id: v.optional(v.string()),
  reason: v.optional(v.string()),
});

export const ListSuppressionsResponse = pageOf(Suppression);
export const AddSuppressionResponse = v.object({ client_id: v.number(), created: v.boolean(), ...Suppression.entries });
export const GetSuppressionResponse = v.object({ client_id: v.number(), ...Suppression.entries });
export const RemoveSuppressionResponse = v.object({
  client_id: v.number(),
  phone: v.optional(v.string()),
  user_id: v.optional(v.string()),
  removed: v.literal(true),
});
