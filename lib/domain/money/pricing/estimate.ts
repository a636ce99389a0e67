import { listInForce, type PriceList, priceOf } from './price-list.ts';
import { CALENDAR_ZONE, dayIn } from '../../shared/calendar.ts';
import { fromMicros, toMicros } from '../../shared/money.ts';
import { cardIdOf, pricingCategoryOf, type RateCards } from './rate-card.ts';
import { type MaxPrice, maxPriceMicros } from './reservation.ts';

/** What a send would cost if every message were delivered and billable (decisions §24, §26), in micro-units too. */
export interface Estimate {
  currency: string;
  amount: number;
  /** The card it was priced on (`meta-<effective_from>-<currency>`). */
  rate_card: string;
  /** A market without `amount` is one the client's price list cannot price (`unpriced_markets`). */
  by_market: Record<string, { messages: number; amount?: number }>;
  micros: number;
  /** The WABA's currency has no card: priced in the base currency. */
  currency_mismatch?: true;
  /** In the client's price (decisions §27, §32): the price list's version, and Meta's cost for BSP_CN. */
  price_list?: string;
  /** A max-price send (decisions §34): every message at its max price per delivery, not the card's rate. */
  max_price?: MaxPrice;
  /** Markets the client's price list cannot price: left out of `amount`, never priced at Meta's cost. */
  unpriced_markets?: string[];
  cost?: { currency: string; amount: number };
}

/**
 * A send's estimate: its unique recipients (by the digits of their number) priced by market at the template's
 * category, on the card in force today in the WABA's currency, or wholly in the base currency (said so) where no
 * card in it prices every market of the send. Meta may charge less (a free window, an entry point, a lower tier),
 * never more by this card.
 */
export function estimateOf(
  cards: RateCards,
  recipientDigits: string[],
  templateCategory: string | undefined,
  nowMs: number,
  currency?: string,
  /** The WABA's zone (decisions §31): "today" and its card are the WABA's day's. */
  zone: string = CALENDAR_ZONE,
  maxPrice?: MaxPrice,
): Estimate {
  const day = dayIn(nowMs, zone);
  const category = pricingCategoryOf(templateCategory);
  const markets = new Map<string, { messages: number; micros: number }>();
  for (const digits of new Set(recipientDigits)) {
    const { market } = cards.placeOfPerson(digits, day);
    const known = markets.get(market) ?? { messages: 0, micros: 0 };
    known.messages += 1;
    markets.set(market, known);
  }
  // One currency for the whole estimate: the WABA's own card only where it prices every market of the send.
  const { card, currency_mismatch } = cards.inForce(day, currency, [...markets.keys()]);
  // A max-price send (decisions §34): Meta charges its max price or less, in its currency (the WABA's).
  const unitOf = (market: string) => (maxPrice ? maxPriceMicros(maxPrice) : cards.priceMicros(market, category, day, card.currency));
  for (const [market, m] of markets) m.micros = m.messages * unitOf(market);
  const micros = [...markets.values()].reduce((sum, m) => sum + m.micros, 0);
  return {
    currency: maxPrice?.currency ?? card.currency,
    amount: fromMicros(micros),
    rate_card: cardIdOf(card),
    by_market: Object.fromEntries(
      [...markets]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([market, m]) => [market, { messages: m.messages, amount: fromMicros(m.micros) }]),
    ),
    micros,
    ...(currency_mismatch && !maxPrice && { currency_mismatch: true as const }),
    ...(maxPrice && { max_price: maxPrice }),
  };
}

/**
 * An estimate in the client's price (decisions §27, §32), where the client has price lists: each market's messages
 * at the price of the list in force on the day the send goes; Meta's cost kept beside it for BSP_CN. A market the
 * list cannot price (a cost in another currency and no fixed price, or no list in force yet that day) is named in
 * `unpriced_markets` with its messages and no amount: never filled with cost, and a sum never mixes currencies.
 */
export function inClientPrice(
  estimate: Estimate,
  lists: PriceList[],
  templateCategory: string | undefined,
  goesMs: number,
  zone: string = CALENDAR_ZONE,
): Estimate {
  if (lists.length === 0) return estimate;
  // The day the send goes, in the WABA's zone (decisions §31).
  const day = dayIn(goesMs, zone);
  const list = listInForce(lists, day);
  const category = pricingCategoryOf(templateCategory);
  const byMarket: Estimate['by_market'] = {};
  const unpriced: string[] = [];
  let micros = 0;
  for (const [market, m] of Object.entries(estimate.by_market)) {
    const costMicros = toMicros(m.amount ?? 0) / m.messages;
    const priced = { day, market, category, costMicros, costCurrency: estimate.currency, billable: true };
    const unit = list && priceOf([list], { ...priced, ...(estimate.max_price && { maxPrice: true }) });
    if (!unit) unpriced.push(market);
    byMarket[market] = unit ? { messages: m.messages, amount: fromMicros(unit.micros * m.messages) } : { messages: m.messages };
    micros += unit ? unit.micros * m.messages : 0;
  }
  return {
    ...estimate,
    currency: list?.currency ?? estimate.currency,
    amount: fromMicros(micros),
    by_market: byMarket,
    micros,
    ...(list && { price_list: list.effective_from }),
    ...(unpriced.length > 0 && { unpriced_markets: unpriced }),
    cost: { currency: estimate.currency, amount: estimate.amount },
  };
}
