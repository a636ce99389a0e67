import * as v from 'valibot';
import { REVIEW_RULES } from '#lib/domain/templates/rules/review.ts';
import { clientIdBody, clientIdParam, ErrorDetailShape, wholeIdBody } from './common.ts';

const Pair = v.strictObject({
  channel_id: wholeIdBody,
  campaign_id: wholeIdBody,
});

export const OptimizationSpec = v.strictObject({
  bid_amount: v.pipe(v.number('must be a number'), v.gtValue(0, 'must be greater than 0')),
  bid_strategy: v.pipe(v.string('must be a string'), v.minLength(1)),
  bid_country_multiplier_overrides: v.optional(
    v.record(
      v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'keys must be two-letter country codes')),
      v.pipe(v.number(), v.gtValue(0, 'must be greater than 0')),
    ),
  ),
});

/** Components are the upstream's own shapes: checked by the template rules, not restricted here. */
const Components = v.array(v.record(v.string(), v.unknown(), 'must be an object'), 'must be an array of components');

export const CreateTemplateBody = v.strictObject({
  name: v.string('is required'),
  language: v.string('is required'),
  category: v.string('is required'),
  components: Components,
  parameter_format: v.optional(v.string()),
  client_id: v.optional(clientIdBody),
  channel_campaigns: v.optional(v.strictObject({ assignments: v.array(Pair) })),
  optimization_spec: v.optional(OptimizationSpec),
  allow_button_url_change: v.optional(v.boolean()),
  allow_category_change: v.optional(v.boolean()),
  add_security_recommendation: v.optional(v.boolean()),
  code_expiration_minutes: v.optional(v.number('must be a number')),
  message_send_ttl_seconds: v.optional(v.number('must be a number')),
  country: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'must be a two-letter country code'))),
  header_source: v.optional(v.pipe(v.string(), v.maxLength(2048))),
  header_handle: v.optional(v.pipe(v.string(), v.maxLength(4096))),
});

/** `dry_run=true` validates and lints without calling the upstream or writing anything (decisions §18). */
const DryRun = v.optional(v.picklist(['true', 'false'], 'must be true or false'));

export const CreateTemplateQuery = v.object({ client_id: v.optional(clientIdParam), dry_run: DryRun });
export const EditTemplateQuery = v.object({ dry_run: DryRun });

export const EditTemplateBody = v.strictObject({
  components: Components,
  name: v.optional(v.string()),
  language: v.optional(v.string()),
  category: v.optional(v.string()),
  client_id: v.optional(clientIdBody),
  allow_button_url_change: v.optional(v.boolean()),
  optimization_spec: v.optional(OptimizationSpec),
});

const Did = v.pipe(v.string(), v.trim(), v.minLength(1, 'did is required'), v.maxLength(64));

/** The DID sits in the `{id}` segment (lib/manifest/route.ts `path` says why). */
export const TemplateDidPath = v.object({ id: Did });

export const DidTemplatePath = v.object({
  id: Did,
  messageTemplateId: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64)),
});

export type CreateTemplateInput = v.InferOutput<typeof CreateTemplateBody>;
export type EditTemplateInput = v.InferOutput<typeof EditTemplateBody>;

/** Review warnings (decisions §18): predicted rejection reasons, never a refusal. */
const ReviewWarnings = v.array(v.object({ rule: v.picklist(REVIEW_RULES), path: v.string(), message: v.string() }));

/** The upstream's create answer passed through (spec §6), with review warnings when there are any. */
export const CreateTemplateResponse = v.looseObject({
  id: v.string(),
  status: v.string(),
  category: v.string(),
  review_warnings: v.optional(ReviewWarnings),
});

/** An edit (spec §5): whether anything changed, with review warnings when there are any. */
export const EditTemplateResponse = v.object({
  success: v.literal(true),
  changed: v.boolean(),
  message: v.optional(v.string()),
  review_warnings: v.optional(ReviewWarnings),
});

/** A template's dry run (decisions §18): every problem, and the review warnings. */
export const TemplateDryRunResponse = v.object({ valid: v.boolean(), errors: v.array(ErrorDetailShape), review_warnings: ReviewWarnings });
