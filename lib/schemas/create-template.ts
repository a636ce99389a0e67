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

/** A template of Meta's library (docs/platform-2027.md §6): its name as the library spells it. */
const LibraryName = v.pipe(
  v.string('must be a string'),
  v.regex(/^[a-z0-9_]+$/, 'must be lower-case letters, digits and underscores'),
  v.maxLength(512, 'must be at most 512 characters'),
);

const text = (max: number) => v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(max));

/** What a library template's buttons take (Meta's `library_template_button_inputs`, one entry a button, in order). */
const LibraryButtonInput = v.variant(
  'type',
  [
    v.strictObject({
      type: v.literal('URL'),
      url: v.strictObject({
        base_url: v.pipe(text(2000), v.regex(/^https:\/\/\S+$/, 'must be an https address')),
        url_suffix_example: v.optional(text(2000)),
      }),
    }),
    v.strictObject({
      type: v.literal('PHONE_NUMBER'),
      phone_number: v.pipe(v.string('must be a string'), v.regex(/^\+?[0-9]{6,20}$/, 'must be a phone number in international form')),
    }),
    v.strictObject({
      type: v.literal('OTP'),
      otp_type: v.picklist(['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'], 'must be COPY_CODE, ONE_TAP or ZERO_TAP'),
      supported_apps: v.optional(
        v.pipe(
          v.array(
            v.strictObject({
              package_name: v.pipe(
                text(224),
                v.regex(
                  /^[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)+$/,
                  'must be an Android package name (at least two dot-separated segments)',
                ),
              ),
              signature_hash: v.pipe(
                v.string('must be a string'),
                v.regex(/^[A-Za-z0-9+/=]{11}$/, 'must be 11 characters of A-Z, a-z, 0-9, +, / or ='),
              ),
            }),
          ),
          v.maxLength(5, 'must list at most 5 apps'),
        ),
      ),
      zero_tap_terms_accepted: v.optional(v.boolean('must be true or false')),
    }),
  ],
  'must have type URL, PHONE_NUMBER or OTP',
);

/** The options a library template's body takes (Meta's `library_template_body_inputs`). */
const LibraryBodyInputs = v.strictObject({
  add_contact_number: v.optional(v.boolean('must be true or false')),
  add_learn_more_link: v.optional(v.boolean('must be true or false')),
  add_security_recommendation: v.optional(v.boolean('must be true or false')),
  add_track_package_link: v.optional(v.boolean('must be true or false')),
  code_expiration_minutes: v.optional(
    v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1), v.maxValue(90, 'must be at most 90')),
  ),
});

const TemplateFields = v.strictObject({
  name: v.string('is required'),
  language: v.string('is required'),
  category: v.string('is required'),
  components: v.optional(Components),
  library_template_name: v.optional(LibraryName),
  library_template_button_inputs: v.optional(v.pipe(v.array(LibraryButtonInput), v.maxLength(10, 'must hold at most 10 inputs'))),
  library_template_body_inputs: v.optional(LibraryBodyInputs),
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

/**
 * A template of its own `components`, or one of Meta's library by `library_template_name` with its inputs:
 * exactly one of the two (issue 55 item 6).
 */
export const CreateTemplateBody = v.pipe(
  TemplateFields,
  v.forward(
    v.check((b) => b.components !== undefined || b.library_template_name !== undefined, 'is required'),
    ['components'],
  ),
  v.forward(
    v.check(
      (b) => b.components === undefined || b.library_template_name === undefined,
      'not with components: a library template takes its content from Meta’s library',
    ),
    ['library_template_name'],
  ),
  v.forward(
    v.check(
      (b) => b.library_template_name !== undefined || b.library_template_button_inputs === undefined,
      'only with library_template_name',
    ),
    ['library_template_button_inputs'],
  ),
  v.forward(
    v.check(
      (b) => b.library_template_name !== undefined || b.library_template_body_inputs === undefined,
      'only with library_template_name',
    ),
    ['library_template_body_inputs'],
  ),
  v.description(
    'Either `components` (a template of its own) or `library_template_name` (a template of Meta’s Template Library: UTILITY or AUTHENTICATION, approved without review) with `library_template_button_inputs` (one a button of the library template, in order: `URL` with `url.base_url`, `PHONE_NUMBER` with `phone_number`, `OTP` with `otp_type`) and `library_template_body_inputs`; never both (400).',
  ),
);

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
