import * as v from 'valibot';
import { booleanParam, textParam, wholeNumberParam } from './common.ts';

export const ListChannelsQuery = v.object({
  client_id: v.optional(wholeNumberParam),
  wa_id: v.optional(textParam),
  waba_id: v.optional(textParam),
  status: v.optional(textParam),
  business_id: v.optional(textParam),
  business_name: v.optional(textParam),
  q: v.optional(textParam),
  deleted: v.optional(booleanParam),
  page: v.optional(wholeNumberParam),
  size: v.optional(wholeNumberParam),
  fields: v.optional(v.pipe(v.string(), v.maxLength(2048))),
});
