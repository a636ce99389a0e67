import { fromMicros, toMicros } from '../../shared/money.ts';
import { type PriceList, priceOf } from './price-list.ts';
import { cardIdOf, PRICING_CATEGORIES, type PricingCategory, type RateCards } from './rate-card.ts';

/**
 * A price list as its client's agents see it (decisions §32): the price of every market × category of the card
 * in force, never the markup that makes them. A market the list cannot price (a markup on a card in another
 * currency, without a fixed price) is named in `unpriced_markets`, never filled with Meta's cost.
 */
export interface PriceTable {
  client_id: number;
  effective_from: string;
  currency: string;
  /** The rate card the prices were derived from: `meta-<effective_from>-<currency>`. */
  rate_card: string;
  prices: Record<string, Partial<Record<PricingCategory, number>>>;
  /** The list's rates (decisions §31): a rate is not a cost, margin or markup, and the statement prints it. */
  exchange_rates?: Record<string, number>;
  /** Never here: with the prices it gives Meta's cost (visibility.ts). */
  markup_percent?: never;
  unpriced_markets?: string[];
  created_at: string;
}

/**
 * The list's prices on the card in force on `day` in the list's currency, at the card's base rate (a volume tier
 * lowers a marked-up price as it lowers the cost). A fixed price of a market the card does not name is kept.
 */
export function priceTableOf(list: PriceList, cards: RateCards, day: string): PriceTable {
  const { card } = cards.inForce(day, list.currency);
  const markets = [...new Set([...Object.keys(card.markets), ...Object.keys(list.prices ?? {})])].sort();
  const prices: PriceTable['prices'] = {};
  const unpriced: string[] = [];
  for (const market of markets) {
    const rates: Partial<Record<PricingCategory, number>> = card.markets[market] ?? {};
    const categories = PRICING_CATEGORIES.filter((c) => rates[c] !== undefined || list.prices?.[market]?.[c] !== undefined);
    const row: Partial<Record<PricingCategory, number>> = {};
    for (const category of categories) {
      // A category the card does not rate is here for its fixed price alone, which wins over any cost.
      const costMicros = toMicros(rates[category] ?? 0);
      const price = priceOf([list], {
        day: list.effective_from,
        market,
        category,
        costMicros,
        costCurrency: card.currency,
        billable: true,
      });
      if (price) row[category] = fromMicros(price.micros);
    }
    if (Object.keys(row).length > 0) prices[market] = row;
    if (Object.keys(row).length < categories.length) unpriced.push(market);
  }
  return {
    client_id: list.client_id,
    effective_from: list.effective_from,
    currency: list.currency,
    rate_card: cardIdOf(card),
    prices,
    ...(list.exchange_rates && { exchange_rates: list.exchange_rates }),
    ...(unpriced.length > 0 && { unpriced_markets: unpriced }),
    created_at: list.created_at,
  };
}
