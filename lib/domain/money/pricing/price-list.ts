import { toMicros } from '../../shared/money.ts';
import type { PricingCategory } from './rate-card.ts';

/**
 * A client's price list (decisions §27): what the provider charges the client for a message, in the client's
 * currency: Meta's cost plus a markup, a fixed price per market and category, or both (a fixed price wins).
 * Lists are versioned by `effective_from`: a list is in force from that day (UTC) until the next list's, and a
 * new list never edits a past one, so what a past day was priced at stays true.
 */
export interface PriceList {
  client_id: number;
  /** YYYY-MM-DD (UTC); in force from that day until the next list's. */
  effective_from: string;
  /** ISO 4217: what the client pays in. */
  currency: string;
  /** Meta's cost + this %. */
  markup_percent?: number;
  /**
   * How a max-price charge of the Marketing Messages API is resold (decisions §34): Meta's charged price plus this
   * %, converted as any cost; absent, at cost. Never a fixed price: Meta's price is only known once charged.
   */
  max_price_markup_percent?: number;
  /** Fixed price per market (as the rate cards name it) and category, in `currency`; wins over the markup. */
  prices?: Record<string, Partial<Record<PricingCategory, number>>>;
  /**
   * Units of `currency` per unit of another currency (ISO 4217), decisions §31: how Meta's cost in that currency
   * is converted before the markup. Not a cost, margin or markup: the client's agents see it.
   */
  exchange_rates?: Record<string, number>;
  created_at: string;
}

/** What one message is priced at: micro-units of the list's currency, and the list's version. */
export interface Price {
  micros: number;
  currency: string;
  /** The list's version id, its `effective_from` (statements name it). */
  list: string;
}

/** One message as a price list prices it: its day, market, category and what Meta charged for it. */
export interface PricedMessage {
  day: string;
  market: string;
  category: PricingCategory;
  costMicros: number;
  costCurrency: string;
  billable: boolean;
  /** A max-price charge (decisions §34): priced at cost plus the list's `max_price_markup_percent`, never a fixed price. */
  maxPrice?: boolean;
}

/** The list in force on a day (YYYY-MM-DD), or undefined (lists: any order). */
export function listInForce(lists: PriceList[], day: string): PriceList | undefined {
  let found: PriceList | undefined;
  for (const list of lists) {
    if (list.effective_from <= day && (!found || list.effective_from > found.effective_from)) found = list;
  }
  return found;
}

/** Why a message has no price: no list in force that day (the client pays Meta's cost), or a cost it cannot convert. */
export type NoPrice = 'no_list' | 'cannot_convert';

/**
 * What the client pays for one message (micro-units of the list's currency), or undefined when no list is in
 * force that day (then the client pays Meta's cost: `cost` is what it sees). Not charged (not billable) → 0.
 * A fixed price for (market, category) wins; else markup on cost (none: the cost itself), a cost in another
 * currency first converted at the list's rate for it (decisions §31); rounded to the micro-unit once, at the end.
 * A cost in a currency the list has no rate for (lists set before rates) → undefined (`whyNoPrice`: cannot convert).
 */
export function priceOf(lists: PriceList[], m: PricedMessage): Price | undefined {
  const list = listInForce(lists, m.day);
  if (!list) return undefined;
  const priced = (micros: number): Price => ({ micros, currency: list.currency, list: list.effective_from });
  if (!m.billable) return priced(0);
  const fixed = m.maxPrice ? undefined : list.prices?.[m.market]?.[m.category];
  if (fixed !== undefined) return priced(toMicros(fixed));
  const rate = m.costCurrency === list.currency ? 1 : list.exchange_rates?.[m.costCurrency];
  if (rate === undefined) return undefined;
  const markup = m.maxPrice ? (list.max_price_markup_percent ?? 0) : (list.markup_percent ?? 0);
  return priced(Math.round((m.costMicros * rate * (100 + markup)) / 100));
}

/** Why `priceOf` answers undefined for a message, or undefined when it answers a price. */
export function whyNoPrice(lists: PriceList[], m: PricedMessage): NoPrice | undefined {
  if (!listInForce(lists, m.day)) return 'no_list';
  return priceOf(lists, m) === undefined ? 'cannot_convert' : undefined;
}

/** A client's lists as on a day: the one in force, those to come (soonest first) and the past ones (newest first). */
export function listsOn(lists: PriceList[], day: string) {
  const inForce = listInForce(lists, day);
  const sorted = [...lists].sort((a, b) => a.effective_from.localeCompare(b.effective_from));
  return {
    in_force: inForce ?? null,
    upcoming: sorted.filter((list) => list.effective_from > day),
    past: sorted.filter((list) => inForce && list.effective_from < inForce.effective_from).reverse(),
  };
}
