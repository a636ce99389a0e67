import * as v from 'valibot';
import { clientIdBody, clientIdParam, count, ErrorDetailShape, pageOf, timestamp, wholeIdBody, wholeNumberParam } from './common.ts';
import { DirectMessage, oneWayToSend } from './direct-send.ts';
import { Params } from './send-params.ts';
import { DryRunSplit, TestFirst, TestShown, Variants, VariantShown } from './ab-send.ts';
import { issuesToDetails } from './issues.ts';
import { BSUID } from '#lib/domain/people/person.ts';
import { RECIPIENT_STATUSES } from '#lib/domain/sends/operations/send-recipients.ts';

/** Maximum recipients per send request (decisions §5). */
export const MAX_RECIPIENTS = 10_000;

const MediaHeader = v.strictObject({
  type: v.picklist(['image_url', 'video_url', 'document_url'], 'must be image_url, video_url, document_url or location'),
  value: v.pipe(v.string(), v.minLength(1)),
  filename: v.optional(v.string()),
});
const LocationHeader = v.strictObject({
  type: v.literal('location'),
  location: v.strictObject({ latitude: v.string(), longitude: v.string(), name: v.string(), address: v.string() }),
});

/** A recipient by phone number, by BSUID, or both (decisions §28): at least one. */
export const Recipient = v.pipe(
  v.strictObject({
    to: v.optional(v.pipe(v.string(), v.regex(/^\+?[0-9]{6,20}$/, 'must be a phone-number style id'))),
    user_id: v.optional(v.pipe(v.string(), v.regex(BSUID, 'must be a BSUID: <country>.[ENT.]<1–128 letters or digits>'))),
    params: v.optional(Params),
  }),
  v.check((r) => r.to !== undefined || r.user_id !== undefined, 'needs to, user_id or both'),
);

const SendFields = v.strictObject({
  did: v.pipe(v.string('did is required'), v.trim(), v.minLength(1, 'did is required')),
  type: v.literal('template', 'must be template'),
  channel: v.literal('MSGCHAN', 'must be MSGCHAN'),
  // Meta's limits: a template's name is at most 512 characters, a language code a few (en_US, zh_HK); longer ones
  // name no template, and would pass DynamoDB's key limit in the lookup (a 500, found by the hostile generator).
  template: v.optional(
    v.strictObject({
      name: v.pipe(v.string(), v.minLength(1), v.maxLength(512, 'name is at most 512 characters')),
      language: v.pipe(v.string(), v.minLength(1), v.maxLength(15, 'language is a language code of at most 15 characters')),
    }),
  ),
  /** An A/B send (decisions §33): 2–4 templates of one category with their weights instead of one, and maybe a test first. */
  variants: v.optional(Variants),
  test: v.optional(TestFirst),
  /** Direct Send (issue 55 item 2): the category and the message instead of a template, on a WABA Meta enabled. */
  category: v.optional(v.picklist(['UTILITY', 'AUTHENTICATION'], 'must be UTILITY or AUTHENTICATION')),
  message: v.optional(DirectMessage),
  recipients: v.pipe(
    v.array(Recipient),
    v.minLength(1, 'must name at least one recipient'),
    v.maxLength(MAX_RECIPIENTS, `at most ${MAX_RECIPIENTS} recipients per request`),
  ),
  campaignId: v.optional(wholeIdBody),
  client_id: v.optional(clientIdBody),
  attends: v.optional(v.strictObject({ waitTime: v.optional(v.number()), typification: v.optional(v.number()) })),
  message_send_ttl_seconds: v.optional(v.pipe(v.number(), v.integer())),
  allow_duplicates: v.optional(v.boolean()),
  component: v.optional(v.strictObject({ header: v.union([MediaHeader, LocationHeader], 'must be a media or location header') })),
  send_at: v.optional(
    v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i, 'must be an RFC 3339 date-time')),
  ),
  /** Which API a MARKETING send goes through (decisions §28): `auto` (the default) takes the MM API where onboarded. */
  marketing_api: v.optional(v.picklist(['auto', 'cloud', 'mm'], 'must be auto, cloud or mm')),
  /** A MARKETING send's time to live on the Marketing Messages API: 12 hours to 30 days (decisions §28). */
  ttl_seconds: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number'),
      v.minValue(43_200, 'must be at least 43200 (12 hours)'),
      v.maxValue(2_592_000, 'must be at most 2592000 (30 days)'),
    ),
  ),
  /**
   * A MARKETING send's max price on the Marketing Messages API (decisions §34): per 1,000 deliveries, in the WABA's
   * billing currency; Meta charges it or less per delivered message, and the send reserves it.
   */
  max_price: v.optional(
    v.strictObject({
      amount_per_1000: v.pipe(
        v.number('must be a number'),
        v.finite('must be a number'),
        v.gtValue(0, 'must be over 0'),
        v.ltValue(1_000_000, 'must be under 1000000'),
        // Per delivery, a thousandth of it: whole micro-units.
        v.check((n) => Math.abs(n * 1000 - Math.round(n * 1000)) < 1e-6, 'must have at most 3 decimals'),
      ),
      currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code (3 capital letters)')),
    }),
  ),
});

export const SendBody = oneWayToSend(SendFields);

/** `?dry_run=true` checks a send without queuing it (decisions §12). */
export const SendQuery = v.object({ dry_run: v.optional(v.picklist(['true', 'false'], 'must be true or false')) });

/** A send's envelope in a dry run: every field as for a send, the recipients checked one by one after. */
export const SendEnvelope = oneWayToSend(
  v.strictObject({
    ...SendFields.entries,
    recipients: v.pipe(
      v.array(v.unknown(), 'must be an array'),
      v.minLength(1, 'must name at least one recipient'),
      v.maxLength(MAX_RECIPIENTS, `at most ${MAX_RECIPIENTS} recipients per request`),
    ),
  }),
);

export const SendIdPath = v.object({ send_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_=+-]{1,128}$/, 'must be a send id')) });
export const ListSendsQuery = v.object({
  client_id: v.optional(clientIdParam),
  page: v.optional(wholeNumberParam),
  size: v.optional(wholeNumberParam),
});

/**
 * A dry run's body (decisions §12): the envelope is checked as for a send (its problems are a 400), each
 * recipient on its own, so a dry run names every recipient the schema refuses with its position.
 */
export function dryRunInput(raw: unknown) {
  const envelope = v.safeParse(SendEnvelope, raw ?? {}, { abortPipeEarly: true });
  if (!envelope.success) return { problems: issuesToDetails(envelope.issues) };
  const { recipients: items, ...body } = envelope.output;
  const recipients: { index: number; recipient: v.InferOutput<typeof Recipient> }[] = [];
  const refused: { index: number; path: string; message: string }[] = [];
  items.forEach((item, index) => {
    const result = v.safeParse(Recipient, item, { abortPipeEarly: true });
    if (result.success) recipients.push({ index, recipient: result.output });
    else for (const detail of issuesToDetails(result.issues, `recipients[${index}]`)) refused.push({ index, ...detail });
  });
  return { body, recipients, refused, total: items.length };
}

/** An amount in its currency, exact to the micro-unit (decisions §24). */
const usd = v.pipe(v.number(), v.minValue(0));
/** An ISO 4217 currency: the WABA's billing currency, or USD where it has no rate card (decisions §26). */
export const Currency = v.pipe(v.string(), v.regex(/^[A-Z]{3}$/));

/** What a send's unique recipients would cost if every message were delivered and billable (decisions §24, §26). */
export const Estimate = v.object({
  currency: Currency,
  amount: usd,
  /** The rate card the estimate priced with: `meta-<effective_from>-<currency>`. */
  rate_card: v.string(),
  /** A market without `amount` is one the client's price list cannot price: it is in `unpriced_markets`. */
  by_market: v.record(v.string(), v.object({ messages: count, amount: v.optional(usd) })),
  /** The WABA's billing currency has no rate card: priced in USD. */
  currency_mismatch: v.optional(v.literal(true)),
  /** In the client's price: its price list's version (decisions §27). */
  price_list: v.optional(v.string()),
  /**
   * Markets the client's price list cannot price (decisions §32: a cost in another currency without a fixed
   * price, or no list in force yet on the day the send goes): named, left out of `amount`, never priced at cost.
   */
  unpriced_markets: v.optional(v.array(v.string())),
  /** Meta's cost of it, for BSP_CN, where the estimate is in the client's price. */
  cost: v.optional(v.object({ currency: Currency, amount: usd })),
  /** A max-price send (decisions §34): every message estimated at its max price per delivery, not the card's rate. */
  max_price: v.optional(v.object({ amount_per_1000: usd, currency: Currency })),
});

/** What a send's delivered messages cost so far (decisions §24), in the currency its WABA is billed in. */
export const SendCost = v.object({
  currency: Currency,
  amount: usd,
  billable: count,
  by_category: v.record(v.string(), v.object({ messages: count, amount: usd })),
});

/** What the client pays for a send's delivered messages (decisions §27), in its price list's currency. */
export const SendPrice = v.object({
  currency: Currency,
  amount: usd,
  by_category: v.record(v.string(), v.object({ messages: count, amount: usd })),
});

/** A send accepted (spec §1, decisions §12): its id, and a warning where the spec names one. */
const Warnings = v.optional(
  v.array(
    v.object({
      code: v.picklist([
        'messaging_limit_exceeded',
        'number_quality_red',
        'template_quality_red',
        'budget_80_percent',
        'numbers_not_valid_for_region',
        'us_marketing_paused',
      ]),
      message: v.string(),
    }),
  ),
);

export const SendAcceptedResponse = v.object({
  success: v.literal(true),
  send_id: v.string(),
  /** A send with a `send_at` still ahead (decisions §22). */
  status: v.optional(v.literal('scheduled')),
  warning: v.optional(v.string()),
  warnings: Warnings,
  estimate: v.optional(Estimate),
  /** An A/B send (decisions §33): each variant's recipients, and its test first. */
  variants: v.optional(v.array(VariantShown)),
  test: v.optional(TestShown),
});

/** A send's dry run (decisions §12): every failing recipient by its position. */
export const SendDryRunResponse = v.object({
  success: v.boolean(),
  dry_run: v.literal(true),
  total: count,
  valid: count,
  invalid: v.array(v.object({ index: count, ...ErrorDetailShape.entries, code: v.optional(v.string()) })),
  warnings: Warnings,
  /** A MARKETING send's recipients on the client's suppression list (decisions §25): never sent. */
  suppressed: v.optional(v.array(v.object({ index: count, to: v.optional(v.string()), user_id: v.optional(v.string()) }))),
  /** A MARKETING send's recipients already at the client's frequency cap now (decisions §33): skipped when dispatched. */
  capped_by_rule: v.optional(v.array(v.object({ index: count, to: v.optional(v.string()), user_id: v.optional(v.string()) }))),
  estimate: v.optional(Estimate),
  ...DryRunSplit,
});

/** What the dispatcher did with a send so far (decisions §12). */
export const SendStatusResponse = v.object({
  send_id: v.string(),
  client_id: v.number(),
  did: v.string(),
  template: v.object({ name: v.string(), language: v.string() }),
  campaignId: v.optional(v.number()),
  status: v.picklist(['scheduled', 'queued', 'sending', 'paused', 'completed', 'cancelled']),
  created_at: timestamp,
  total: count,
  duplicates_removed: count,
  suppressed: count,
  expired: count,
  sent: count,
  /** Sent messages Meta holds for quality assessment now (decisions §25). */
  held: count,
  delivered: count,
  read: count,
  failed: count,
  /** Recipients Meta refused for its per-user marketing limit (131049, decisions §28): not counted in `failed`. */
  capped: count,
  /** Recipients the client's own frequency cap skipped (decisions §33): never sent, not counted in `failed`. */
  capped_by_rule: count,
  cancelled: count,
  pending: count,
  errors: v.array(v.object({ code: v.string(), title: v.string(), count })),
  /** Meta's cost: never shown to an agent of a client with a price list (decisions §27). */
  cost: v.optional(SendCost),
  /** The client's price, where its price list was in force: its agents and BSP_CN. */
  price: v.optional(SendPrice),
  /** Price less cost, for BSP_CN. */
  margin: v.optional(v.number()),
  /**
   * `true` to an agent of a client with a price list, on a send billed at Meta's cost (before the list): neither
   * `cost` nor `price` is shown (decisions §32).
   */
  unpriced: v.optional(v.literal(true)),
  stopped: v.optional(v.object({ code: v.string(), title: v.string() })),
  cancelled_at: v.optional(timestamp),
  send_at: v.optional(v.string()),
  /** While paused (decisions §25): when its template's pause ends at the latest. */
  paused_until: v.optional(v.string()),
  /** The send this one resent recipients of, and the sends that resent this one's (decisions §25). */
  resend_of: v.optional(v.string()),
  resent_as: v.optional(v.array(v.string())),
  /** An A/B send (decisions §33): its variants (the first is `template`), and its test first with its decision. */
  variants: v.optional(v.array(VariantShown)),
  test: v.optional(TestShown),
});

/** `GET /v1/sends/{send_id}/recipients` (decisions §22): a page of the send's recipients, filtered by state. */
export const ListRecipientsQuery = v.object({
  status: v.optional(v.picklist(RECIPIENT_STATUSES, `must be one of ${RECIPIENT_STATUSES.join(', ')}`)),
  page: v.optional(wholeNumberParam),
  size: v.optional(wholeNumberParam),
});

export const RecipientResponse = v.object({
  index: count,
  to: v.optional(v.string()),
  /** The recipient's BSUID (decisions §28), and its username when a status reported one. */
  user_id: v.optional(v.string()),
  username: v.optional(v.string()),
  /** Which API carried the message: the Cloud API's `/messages` or the Marketing Messages API. */
  api: v.optional(v.picklist(['cloud', 'mm'])),
  status: v.picklist(RECIPIENT_STATUSES),
  /** An A/B send's variant of this recipient (decisions §33): its position in the send's `variants`. */
  variant: v.optional(count),
  message_id: v.optional(v.string()),
  error: v.optional(v.object({ code: v.string(), title: v.string() })),
  /** Meta's pricing of the message and what it cost, once delivered (decisions §24). */
  pricing: v.optional(v.object({ category: v.string(), type: v.string(), billable: v.boolean() })),
  cost: v.optional(usd),
  /** What the client pays for it, where its price list was in force (decisions §27). */
  price: v.optional(usd),
  /** `true` to an agent of a client with a price list, where the message was billed at Meta's cost (decisions §32). */
  unpriced: v.optional(v.literal(true)),
  /** When the person answered the message by its `context.id` (decisions §33), and the first quick-reply button pressed. */
  replied_at: v.optional(timestamp),
  button: v.optional(v.object({ text: v.string(), payload: v.optional(v.string()) })),
  /** When the person wrote otherwise within 24 h of its delivery. */
  replied_after_at: v.optional(timestamp),
  updated_at: timestamp,
});

export const ListRecipientsResponse = pageOf(RecipientResponse);

/** `POST /v1/sends/{send_id}/cancel` (decisions §22). */
export const CancelSendResponse = v.object({ send_id: v.string(), status: v.literal('cancelled') });

export const ListSendsResponse = pageOf(SendStatusResponse);

/** `POST /v1/sends/{send_id}/resend` (decisions §25). */
export const ResendBody = v.strictObject({ which: v.picklist(['failed', 'not_delivered'], 'must be failed or not_delivered') });

/** A resend's dry run reads its body as a resend does (its problems are a 400). */
export function resendInput(raw: unknown) {
  const parsed = v.safeParse(ResendBody, raw ?? {});
  return parsed.success ? parsed.output : { problems: issuesToDetails(parsed.issues) };
}

export const ResendAcceptedResponse = v.object({
  ...SendAcceptedResponse.entries,
  resend_of: v.string(),
  /** How many recipients the new send has. */
  recipients: count,
});
