import * as v from 'valibot';
import { TEST_METRICS, TEST_WAIT_SECONDS, VARIANTS } from '#lib/domain/sends/ab/ab-send.ts';
import { count, timestamp } from './common.ts';
import { Params } from './send-params.ts';

/** A/B sends' part of the send route's body and answers (decisions §33, docs/ab-sends.md). */

const Variant = v.strictObject({
  template: v.pipe(v.string('must be a template name'), v.minLength(1), v.maxLength(512, 'is at most 512 characters')),
  language: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(15, 'language is a language code of at most 15 characters'))),
  weight: v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(VARIANTS.maxWeight, `must be at most ${VARIANTS.maxWeight}`),
  ),
  params: v.optional(Params),
});

/** 2–4 variants, each a template and its weight; the first names its language (the others default to it). */
export const Variants = v.pipe(
  v.array(Variant, 'must be an array of variants'),
  v.minLength(VARIANTS.min, `must give ${VARIANTS.min} to ${VARIANTS.max} variants`),
  v.maxLength(VARIANTS.max, `must give ${VARIANTS.min} to ${VARIANTS.max} variants`),
);

/** A test first: a share strictly between 0 and 1, a bounded wait, and the metric the rest's variant is picked by. */
export const TestFirst = v.strictObject({
  share: v.pipe(
    v.number('must be a number'),
    v.finite('must be a number'),
    v.gtValue(0, 'must be over 0'),
    v.ltValue(1, 'must be under 1'),
  ),
  wait_seconds: v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(TEST_WAIT_SECONDS.min, `must be at least ${TEST_WAIT_SECONDS.min} (5 minutes)`),
    v.maxValue(TEST_WAIT_SECONDS.max, `must be at most ${TEST_WAIT_SECONDS.max} (3 days)`),
  ),
  metric: v.picklist(TEST_METRICS, `must be one of ${TEST_METRICS.join(', ')}`),
});

const VariantTemplate = v.object({ name: v.string(), language: v.string() });
const unit = v.pipe(v.number(), v.minValue(0), v.maxValue(1));

/** A variant in a send's answers: its template, weight and recipients (a dry run's: how many it would have). */
export const VariantShown = v.object({
  template: VariantTemplate,
  weight: count,
  recipients: count,
});

/** A variant's figures in a test's decision: counts, and the metric's rate over delivered with its 95 % interval. */
const RatedVariantShown = v.object({
  template: VariantTemplate,
  sent: count,
  delivered: count,
  read: count,
  replied: count,
  clicked: v.optional(count),
  rate: v.optional(unit),
  interval: v.optional(v.tuple([unit, unit])),
});

/** A test first as a send shows it: what was asked, its split, and once made, the decision with its figures. */
export const TestShown = v.object({
  share: unit,
  wait_seconds: count,
  metric: v.picklist(TEST_METRICS),
  decide_at: timestamp,
  test_recipients: count,
  rest_recipients: count,
  decision: v.optional(
    v.object({
      winner: VariantTemplate,
      decided_at: timestamp,
      rule: v.picklist(['best_rate', 'tie', 'no_data']),
      significant: v.boolean(),
      reason: v.string(),
      variants: v.array(RatedVariantShown),
    }),
  ),
  rest_released_at: v.optional(timestamp),
});

/** A dry run's split (decisions §33): each variant's recipients, and a test's share and rest. */
export const DryRunSplit = {
  variants: v.optional(v.array(VariantShown)),
  test: v.optional(v.object({ test_recipients: count, rest_recipients: count })),
};
