import * as v from 'valibot';
import { isDay } from '#lib/domain/shared/calendar.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { PRICING_CATEGORIES } from '#lib/domain/money/pricing/rate-card.ts';
import { clientIdParam, timestamp } from './common.ts';

/** `/v1/clients/{client_id}/price-list` (decisions §27). */
export const PriceListPath = v.object({ client_id: clientIdParam });

/** Every market as the rate cards name it (any market of any card): a fixed price is per such market. */
export const PRICE_LIST_MARKETS = [...new Set(rateCards.all().flatMap((card) => Object.keys(card.markets)))].sort() as [
  string,
  ...string[],
];

/** A real day (YYYY-MM-DD) of the calendar: 2026-02-30 is not one. */
const day = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)'),
  v.check(isDay, 'must be a date (YYYY-MM-DD)'),
);

/** An amount of the list's currency: 0 or more, under 1,000 a message. */
const amount = v.pipe(v.number('must be a number'), v.finite('must be a number'), v.minValue(0), v.ltValue(1000, 'must be under 1000'));
const percent = v.pipe(v.number('must be a number'), v.finite('must be a number'), v.minValue(0), v.maxValue(1000));
const currency = v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code (3 capital letters)'));

const categoryPrices = v.strictObject(
  Object.fromEntries(PRICING_CATEGORIES.map((category) => [category, v.optional(amount)])) as Record<
    (typeof PRICING_CATEGORIES)[number],
    v.OptionalSchema<typeof amount, undefined>
  >,
);

/** Fixed prices by market and pricing category (`{"Mexico": {"marketing": 0.05}}`): they win over the markup. */
const prices = v.pipe(
  v.record(
    v.picklist(PRICE_LIST_MARKETS, 'must be a market of the rate cards'),
    v.pipe(categoryPrices, v.minEntries(1, 'must name at least one category')),
  ),
  v.minEntries(1, 'must name at least one market'),
);

/** Units of the list's currency per unit of another currency: positive, under a million (a VND or IDR list's USD rate fits). */
const rate = v.pipe(v.number('must be a number'), v.finite('must be a number'), v.gtValue(0, 'must be over 0'), v.ltValue(1_000_000));

/** `{"USD": 17.25}`: how Meta's cost in each named currency converts to the list's (decisions §31). */
const exchangeRates = v.pipe(
  v.record(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code (3 capital letters)')), rate),
  v.minEntries(1, 'must name at least one currency'),
);

/** A price list (decisions §27, §31): Meta's cost plus `markup_percent`, fixed `prices`, or both; `exchange_rates`. */
export const PriceListBody = v.pipe(
  v.strictObject({
    effective_from: day,
    currency,
    markup_percent: v.optional(percent),
    /** How max-price charges (decisions §34) are resold: Meta's charged price plus this %; absent, at cost. */
    max_price_markup_percent: v.optional(percent),
    prices: v.optional(prices),
    exchange_rates: v.optional(exchangeRates),
  }),
  v.check((body) => body.markup_percent !== undefined || body.prices !== undefined, 'markup_percent or prices is required'),
  v.forward(
    v.check((body) => body.exchange_rates?.[body.currency] === undefined, 'must not name the list’s own currency'),
    ['exchange_rates'],
  ),
  v.description(
    'From `effective_from` (today, UTC, or later) on: Meta’s cost plus `markup_percent`, a fixed price per market and category (it wins), or both; at least one of them. A list in force is never replaced (409). `max_price_markup_percent` resells the Marketing Messages API’s max-price charges at Meta’s charged price plus that % (absent: at cost; fixed prices never apply to them). `exchange_rates` gives, per ISO 4217 currency, the units of the list’s `currency` per unit of that currency: Meta’s cost in it is converted (cost × rate, then the markup). A list with a markup must give a rate for every currency Meta bills the client’s WABAs in, from `effective_from` on, other than its own (the WABA’s billing currency where Meta has a card in it, else USD): else 400 naming the currency and the WABA.',
  ),
);

export const PriceListShape = v.object({
  client_id: v.number(),
  /** The first day (UTC) the list is in force; it is until the next list's. */
  effective_from: v.string(),
  currency: v.string(),
  /** BSP_CN's alone (decisions §32): with a price it gives Meta's cost. */
  markup_percent: v.optional(v.number()),
  /** BSP_CN's alone (decisions §32, §34): how max-price charges are resold, Meta's charged price plus this %. */
  max_price_markup_percent: v.optional(v.number()),
  /**
   * BSP_CN: the fixed prices as set. The client's agent: every price the list gives, per market and category of
   * the card in force (`rate_card`), the markup applied.
   */
  prices: v.optional(v.record(v.string(), v.record(v.string(), v.number()))),
  /** Units of `currency` per unit of each named currency (decisions §31): not a cost or markup, so agents see it. */
  exchange_rates: v.optional(v.record(v.string(), v.number())),
  /** The agent's table: the card its prices were derived from (`meta-<effective_from>-<currency>`). */
  rate_card: v.optional(v.string()),
  /** The agent's table: markets the list cannot price (a markup on a card in another currency), named, no figure. */
  unpriced_markets: v.optional(v.array(v.string())),
  created_at: timestamp,
});

/** A client's price lists: the one in force today (UTC), those to come (soonest first), the past ones (newest first). */
export const PriceListsResponse = v.object({
  client_id: v.number(),
  in_force: v.nullable(PriceListShape),
  upcoming: v.array(PriceListShape),
  past: v.array(PriceListShape),
});
