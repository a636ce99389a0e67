import * as v from 'valibot';
import { clientIdParam, count } from './common.ts';
import { Currency } from './send.ts';

/** `GET /v1/clients/{client_id}/statements/{month}` (decisions §27). */
export const StatementPath = v.object({
  client_id: clientIdParam,
  month: v.pipe(v.string(), v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month (YYYY-MM)')),
});

const money = v.pipe(v.number(), v.minValue(0));

/** Meta's cost and the margin (BSP_CN only): the cost's currency where it is not the statement's. */
const costFields = {
  cost: v.optional(money),
  cost_currency: v.optional(Currency),
  margin: v.optional(v.number()),
};

export const StatementLine = v.object({
  /** `charge`: the month's messages; `adjustment`: late charges of the closed month `of_month`. */
  kind: v.picklist(['charge', 'adjustment']),
  market: v.string(),
  category: v.string(),
  of_month: v.optional(v.string()),
  /** `outside`: messages the service did not send, charged to the number's owner (decisions §30). */
  origin: v.optional(v.picklist(['outside'])),
  /** What the client pays a billable message, in micro-units of the currency (amount ÷ billable messages). */
  unit_price: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  messages: count,
  billable: count,
  /** What the client is billed: its price where a price list applied, Meta's cost elsewhere. */
  amount: v.optional(money),
  /**
   * `false` (with no `unit_price` or `amount`): billed before the client's price list, shown so to its agents, who
   * never see Meta's cost (decisions §32).
   */
  priced: v.optional(v.literal(false)),
  ...costFields,
});

export const CurrencyStatement = v.object({
  currency: Currency,
  lines: v.array(StatementLine),
  /** An agent's totals where its client has a price list: of the priced lines, and the count of the others (§32). */
  totals: v.object({
    messages: count,
    billable: count,
    amount: money,
    unpriced_messages: v.optional(count),
    unpriced_billable: v.optional(count),
    ...costFields,
  }),
  /** The total in the currency's minor unit, rounded as `rounding` says: as a decimal, in minor units, and their decimals. */
  amount_due: v.object({ amount: money, minor_units: count, minor_digits: count }),
});

export const StatementResponse = v.object({
  /** The statement's number: the same for a client and month whenever it is read. */
  number: v.string(),
  /** Who issues it: the provider's name and postal address (settings). */
  provider: v.string(),
  provider_address: v.string(),
  client_id: v.number(),
  client_name: v.string(),
  month: v.string(),
  period: v.object({ from: v.string(), to: v.string() }),
  /**
   * `closed` once the close job closed it (after `closes_at`: 00:00 on the 3rd of the next month in the client's
   * billing timezone), never changing; `open` until then.
   */
  status: v.picklist(['open', 'closed']),
  closes_at: v.string(),
  /** When the close job kept the closed statement. */
  closed_snapshot_at: v.optional(v.string()),
  /** One statement a currency the month was charged in (none: no charges). */
  statements: v.array(CurrencyStatement),
  /** The rate cards in force on the days charged: `meta-<date>-<CUR>`. */
  card_versions: v.array(v.string()),
  /** The price lists (their effective_from) in force on the days a price was charged. */
  price_list_versions: v.array(v.string()),
  /**
   * The exchange rates those lists converted Meta's cost at (decisions §31), as kept with the month: `rate` units of
   * `currency` (the list's) per unit of `per` (Meta's). Absent where no list converted a cost.
   */
  exchange_rates: v.optional(
    v.array(v.object({ price_list: v.string(), currency: Currency, per: Currency, rate: v.pipe(v.number(), v.gtValue(0)) })),
  ),
  /** sha256 (hex) of the canonical JSON of the lines (README "Statements"). */
  lines_sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  /** How lines and amounts due are rounded, as printed. */
  rounding: v.string(),
});

/** The statement's CSV: one row a line, then a `total` row a currency; each row names client, month, status and hash. */
export const STATEMENT_CSV = {
  columns: [
    'number',
    'client_id',
    'month',
    'status',
    'currency',
    'kind',
    'market',
    'category',
    'of_month',
    'origin',
    'unit_price_micros',
    'messages',
    'billable',
    'amount',
    'priced',
    'unpriced_messages',
    'unpriced_billable',
    'cost',
    'cost_currency',
    'margin',
    'amount_due',
    'card_versions',
    'price_list_versions',
    'exchange_rates',
    'lines_sha256',
  ],
  decimals: { amount: 6, cost: 6, margin: 6 },
} as const;
