import * as v from 'valibot';
import { USAGE_GROUPS } from '#lib/domain/money/usage.ts';
import { clientIdParam, count, wholeNumberParam } from './common.ts';
import { Currency } from './send.ts';

const dayParam = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)'));

/** `GET /v1/usage` (decisions §24). */
export const UsageQuery = v.object({
  client_id: v.optional(clientIdParam),
  from: dayParam,
  to: dayParam,
  /** A comma list of USAGE_GROUPS (decisions §27); its rules are the use case's (each a 400 naming it). */
  group_by: v.optional(v.pipe(v.string(), v.maxLength(100), v.regex(/^[a-z, ]*$/, `must be a comma list of ${USAGE_GROUPS.join(', ')}`))),
  /** Where a page starts: `paging.cursors.after` of the page before (decisions §32). */
  cursor: v.optional(v.pipe(v.string(), v.maxLength(1024))),
  /** Rows a page holds at most (MAX_ROWS when absent); the use case says the bound. */
  limit: v.optional(wholeNumberParam),
});

const usd = v.pipe(v.number(), v.minValue(0));

export const UsageRow = v.object({
  client_id: v.number(),
  /** The row's period: its day, its month within from–to, or the request's from–to. */
  from: v.string(),
  to: v.string(),
  /** The row's day or month, when grouped by one. */
  period: v.optional(v.string()),
  market: v.optional(v.string()),
  category: v.optional(v.string()),
  did: v.optional(v.string()),
  /** The template's name: rows by template or send come from the sends accepted in from–to, all their charges. */
  template: v.optional(v.string()),
  send: v.optional(v.string()),
  messages: count,
  billable: count,
  /** Meta's cost: absent for an agent of a client with a price list (decisions §27). */
  amount: v.optional(usd),
  /** What the client pays (its price list, its cost on days without one): where a list applies, as moneyShown says. */
  price: v.optional(usd),
  /** The price's currency, where it is not `currency` (BSP_CN). */
  price_currency: v.optional(Currency),
  /** price − amount (BSP_CN). */
  margin: v.optional(v.number()),
  /** The currency of `amount` (decisions §26): a sum never mixes currencies, so each row names its own. */
  currency: Currency,
  /** Its WABA is billed in a currency with no rate card: priced in USD. */
  currency_mismatch: v.optional(v.literal(true)),
  /** Meta's own figure (pricing_analytics) for the row, once the daily reconciliation read it. */
  meta_amount: v.optional(usd),
  /** The currency of `meta_amount` (Meta's, its WABA's), where it is not `currency` (decisions §31). */
  meta_currency: v.optional(Currency),
});

export const UsageResponse = v.object({
  data: v.array(UsageRow),
  /** The rows' currency, where they all share one (USD when there are none). */
  currency: v.optional(Currency),
  client_id: v.number(),
  from: v.string(),
  to: v.string(),
  /** The groups, as a comma list in the order asked. */
  group_by: v.string(),
  /** The cursors of the pages before and after this one, where there are (spec §4's paging, decisions §32). */
  paging: v.object({ cursors: v.object({ before: v.optional(v.string()), after: v.optional(v.string()) }) }),
});

/** `GET /v1/usage/gaps` (decisions §26). */
export const UsageGapsQuery = v.object({ from: dayParam, to: dayParam });

/** A client's day in one market where the ledger and Meta's COST differ by more than 1 %. */
export const CostGapRow = v.object({
  client_id: v.number(),
  day: v.string(),
  market: v.string(),
  currency: v.string(),
  /** What the ledger charged. */
  ledger: usd,
  /** Meta's COST (pricing_analytics) of the client's own numbers. */
  meta: usd,
  /** |meta − ledger| as a share of the larger. */
  share: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
});

export const UsageGapsResponse = v.object({ data: v.array(CostGapRow), from: v.string(), to: v.string() });

/** The CSV a client's accountant opens: a header row, one row a group, amounts with 4 decimals. */
export const USAGE_CSV = {
  columns: [
    'client_id',
    'from',
    'to',
    'period',
    'market',
    'category',
    'did',
    'template',
    'send',
    'currency',
    'messages',
    'billable',
    'amount',
    'price',
    'price_currency',
    'margin',
    'meta_amount',
    // Meta's currency where it is not the row's (decisions §31): a spreadsheet never sums INR into a USD column.
    'meta_currency',
  ],
  decimals: { amount: 4, price: 4, margin: 4, meta_amount: 4 },
} as const;
