import * as v from 'valibot';
import { booleanParam, clientIdParam, pageOf, textParam, wholeNumberParam } from './common.ts';

export const ListChannelsQuery = v.object({
  client_id: v.optional(clientIdParam),
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

/** A channel record limited to the chosen fields (spec §9): strings, the client id a number, is_on_biz_app a flag. */
const ChannelView = v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.null()]));
export const ListChannelsResponse = v.object({ ...pageOf(ChannelView).entries, fields: v.string() });
