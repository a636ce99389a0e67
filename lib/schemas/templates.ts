import * as v from 'valibot';
import { booleanParam, clientIdBody, textParam, wholeNumberParam } from './common.ts';

const RecordId = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64));

/** The record id sits in the `{id}` segment (see lib/routes.ts for why it is not called messageTemplateId). */
export const RecordIdPath = v.object({ id: RecordId });

export const ListTemplatesQuery = v.object({
  state: v.optional(textParam),
  search: v.optional(textParam),
  category: v.optional(textParam),
  lang: v.optional(textParam),
  did: v.optional(textParam),
  name: v.optional(textParam),
  template_meta_id: v.optional(textParam),
  active: v.optional(booleanParam),
  deleted: v.optional(booleanParam),
  campaign_name: v.optional(textParam),
  fields: v.optional(v.pipe(v.string(), v.maxLength(512))),
  size: v.optional(wholeNumberParam),
  limit: v.optional(wholeNumberParam),
  page: v.optional(wholeNumberParam),
  client_id: v.optional(v.string()),
  channel_ids: v.optional(v.pipe(v.string(), v.maxLength(2048))),
  quality_scores: v.optional(textParam),
});

export const BulkStatusBody = v.strictObject({
  action: v.optional(v.string('must be a string')),
  templates: v.optional(
    v.array(
      v.union(
        [
          v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(64)),
          v.strictObject({ id: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64)), action: v.optional(v.string()) }),
        ],
        'must be a template id or {id, action}',
      ),
      'must be an array',
    ),
  ),
});

const PairSchema = v.strictObject({
  channel_id: v.pipe(v.number('must be a number'), v.integer(), v.minValue(1)),
  campaign_id: v.pipe(v.number('must be a number'), v.integer(), v.minValue(1)),
});

export const AssignmentBody = v.strictObject({
  client_id: v.optional(clientIdBody),
  channel_campaigns: v.optional(v.array(PairSchema, 'must be an array of {channel_id, campaign_id}')),
});

export const RemoveAssignmentQuery = v.object({
  client_id: v.optional(v.string()),
  channel_id: v.optional(wholeNumberParam),
  campaign_id: v.optional(wholeNumberParam),
});
