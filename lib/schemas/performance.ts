import * as v from 'valibot';
import { clientIdParam, count } from './common.ts';

// The performance of sends and templates (decisions §33): what `GET /v1/sends/{send_id}/performance` and
// `GET /v1/templates/performance` answer.

const dayParam = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)'));
const amount = v.pipe(v.number(), v.minValue(0));
const share = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
const counts = v.record(v.string(), count);

/** A rate of delivered messages with its 95 % Wilson interval. */
const RateInterval = v.object({ rate: share, low: share, high: share });

/** Counts, the amounts the caller may see (decisions §32) and the rates (decisions §33). */
const Figures = {
  sent: count,
  delivered: count,
  read: count,
  /** Failures, and by Meta's (or the dispatcher's) error code. */
  failed: count,
  failed_by_code: counts,
  /** Messages an inbound message answered by its `context.id`. */
  replied: count,
  /** Messages whose person wrote otherwise within 24 h of their delivery. */
  replied_after: count,
  /** Messages by the first quick-reply button pressed, by its label. */
  buttons: counts,
  cost: v.optional(amount),
  price: v.optional(amount),
  read_rate: v.optional(RateInterval),
  reply_rate: v.optional(RateInterval),
  replied_after_rate: v.optional(RateInterval),
  cost_per_read: v.optional(amount),
  cost_per_reply: v.optional(amount),
  price_per_read: v.optional(amount),
  price_per_reply: v.optional(amount),
};

/**
 * Meta's URL button clicks (its template analytics, issue 56 item 2), where they are read: of the template's every
 * message on the day (Meta counts clicks by template and day, never by send).
 */
const TemplateClicks = { template_clicks: v.optional(count) };

const Template = v.object({ name: v.string(), language: v.string() });

/** Whether the variant with the best rate differs from each other one (two-proportion z-test, two-sided). */
const Comparison = v.object({
  test: v.literal('two_proportion_z'),
  alpha: share,
  best: v.optional(v.number()),
  significant: v.boolean(),
  against: v.array(v.object({ variant: v.number(), z: v.number(), p_value: share, significant: v.boolean() })),
});

export const SendPerformanceResponse = v.object({
  send_id: v.string(),
  client_id: v.number(),
  status: v.string(),
  /** The currency of `cost`, and of `price` (the client's price list's). */
  currency: v.optional(v.string()),
  price_currency: v.optional(v.string()),
  totals: v.object(Figures),
  variants: v.array(v.object({ variant: v.number(), template: Template, ...Figures, ...TemplateClicks })),
  /** Each variant's figures on each day (the WABA's day of each event, as the ledger's). */
  days: v.array(v.object({ day: v.string(), variant: v.number(), ...Figures, ...TemplateClicks })),
  comparison: v.optional(v.object({ read: Comparison, replied: Comparison })),
});

/** `GET /v1/templates/performance` (decisions §33). */
export const TemplatePerformanceQuery = v.object({
  client_id: v.optional(clientIdParam),
  from: dayParam,
  to: dayParam,
});

/** A template's row: flat, so a CSV holds it (rates as numbers, their interval's bounds beside them). */
const TemplateRowFigures = {
  ...Figures,
  read_rate: v.optional(share),
  read_rate_low: v.optional(share),
  read_rate_high: v.optional(share),
  reply_rate: v.optional(share),
  reply_rate_low: v.optional(share),
  reply_rate_high: v.optional(share),
  replied_after_rate: v.optional(share),
  button_replies: count,
  /** Meta's URL button clicks of the template that day (its template analytics), where they are read. */
  clicks: v.optional(count),
};

export const TemplatePerformanceResponse = v.object({
  client_id: v.number(),
  from: v.string(),
  to: v.string(),
  /** A row a template and day. */
  data: v.array(
    v.object({
      day: v.string(),
      waba_id: v.string(),
      template: v.string(),
      language: v.string(),
      currency: v.optional(v.string()),
      price_currency: v.optional(v.string()),
      ...TemplateRowFigures,
    }),
  ),
  /** Each template over the days asked. */
  templates: v.array(
    v.object({
      waba_id: v.string(),
      template: v.string(),
      language: v.string(),
      currency: v.optional(v.string()),
      price_currency: v.optional(v.string()),
      ...Figures,
      clicks: v.optional(count),
    }),
  ),
});

/** The CSV of `data`: these columns in this order. */
export const TEMPLATE_PERFORMANCE_CSV = {
  columns: [
    'day',
    'waba_id',
    'template',
    'language',
    'sent',
    'delivered',
    'read',
    'failed',
    'replied',
    'replied_after',
    'button_replies',
    'clicks',
    'read_rate',
    'read_rate_low',
    'read_rate_high',
    'reply_rate',
    'reply_rate_low',
    'reply_rate_high',
    'cost',
    'currency',
    'cost_per_read',
    'cost_per_reply',
    'price',
    'price_currency',
    'price_per_read',
    'price_per_reply',
  ],
  decimals: { cost: 6, cost_per_read: 6, cost_per_reply: 6, price: 6, price_per_read: 6, price_per_reply: 6 },
} as const;
