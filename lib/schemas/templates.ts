import * as v from 'valibot';
import { booleanParam, clientIdBody, clientIdParam, count, textParam, timestamp, wholeIdBody, wholeNumberParam } from './common.ts';

const RecordId = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64));

/** The record id sits in the `{id}` segment (lib/manifest/route.ts `path` says why it is not called messageTemplateId). */
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
  client_id: v.optional(clientIdParam),
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
  channel_id: wholeIdBody,
  campaign_id: wholeIdBody,
});

export const AssignmentBody = v.strictObject({
  client_id: v.optional(clientIdBody),
  channel_campaigns: v.optional(v.array(PairSchema, 'must be an array of {channel_id, campaign_id}')),
});

export const RemoveAssignmentQuery = v.object({
  client_id: v.optional(clientIdParam),
  channel_id: v.optional(wholeNumberParam),
  campaign_id: v.optional(wholeNumberParam),
});

/**
 * Meta's category changes of a template (decisions §34): the one announced (`template_category_update` with
 * `correct_category`; the template's category moves only when it is done) and the last one made.
 */
export const CategoryChangeShape = v.pipe(
  v.object({
    impending: v.optional(
      v.object({
        category: v.pipe(v.string(), v.description('The category while the change is announced')),
        correct_category: v.pipe(v.string(), v.description('The category Meta will give the template')),
        takes_effect_at: v.optional(v.pipe(v.string(), v.description('When Meta says it changes (its category_update_timestamp)'))),
        announced_at: v.string(),
      }),
    ),
    completed: v.optional(
      v.object({
        previous_category: v.string(),
        new_category: v.pipe(v.string(), v.description('The category a send now routes by')),
        at: v.string(),
      }),
    ),
  }),
  v.description('Meta’s announced category change and the last one it made; absent when it made or announced none'),
);

/**
 * Meta's pauses of a template (decisions §34): how many quality pauses, the last ones (each one's start and the
 * end of Meta's period), whether Meta's next quality pause (RED) disables it, and since when it is disabled.
 */
export const TemplatePauses = v.object({
  count,
  history: v.array(v.object({ paused_at: timestamp, until: timestamp, pacing: v.optional(v.literal(true)) })),
  next_red_disables: v.boolean(),
  disabled_at: v.optional(timestamp),
});

/** Template records limited to the chosen fields (spec §8); total, page and pageSize always. */
export const ListTemplatesResponse = v.object({
  data: v.array(
    v.looseObject({
      id: v.optional(v.string()),
      meta_template: v.optional(v.looseObject({})),
      category_change: v.optional(CategoryChangeShape),
      /** Present once Meta paused or disabled the template (decisions §34). */
      pauses: v.optional(TemplatePauses),
      /** A template Meta generated for Direct Send (`source: AUTO_GENERATED`, issue 55 item 2): read-only. */
      auto_generated: v.optional(v.literal(true)),
    }),
  ),
  total: count,
  page: count,
  pageSize: count,
  paging: v.null(),
});

export const BulkStatusResponse = v.object({
  results: v.array(
    v.object({
      id: v.string(),
      action: v.picklist(['enable', 'disable']),
      success: v.boolean(),
      skipped: v.boolean(),
      reason: v.optional(v.string()),
      previous_active: v.optional(v.boolean()),
      current_active: v.optional(v.boolean()),
    }),
  ),
  summary: v.object({ total: count, succeeded: count, skipped: count, failed: count }),
});

/** Channel-campaign changes (spec §7): the new assignments' ids on POST, null otherwise. */
export const AssignmentResponse = v.object({ ids: v.nullable(v.array(v.string())), success: v.literal(true) });

export const GroupedAssignmentsResponse = v.array(
  v.object({
    campaign_id: v.number(),
    campaign_name: v.optional(v.string()),
    channels: v.array(v.looseObject({ channel_id: v.number() })),
  }),
);
