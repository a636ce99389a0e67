import { type PriceList, priceOf } from './price-list.ts';
import { dayOf } from '../../shared/calendar.ts';
import { fromMicros, toMicros } from '../../shared/money.ts';
import { cardIdOf, pricingCategoryOf, type RateCards } from './rate-card.ts';

/** What a send would cost if every message were delivered and billable (decisions §24, §26), in micro-units too. */
export interface Estimate {
  currency: string;
  amount: number;
  /** The card it was priced on (`meta-<effective_from>-<currency>`). */
  rate_card: string;
  by_market: Record<string, { messages: number; amount: number }>;
  micros: number;
  /** The WABA's currency has no card: priced in the base currency. */
  currency_mismatch?: true;
  /** In the client's price (decisions §27): the price list's version, and Meta's cost for BSP_CN. */
  price_list?: string;
  cost?: { currency: string; amount: number };
}

/**
 * A send's estimate: its unique recipients (by the digits of their number) priced by market at the template's
 * category, on the card in force today in the WABA's currency. Meta may charge less (a free window, an entry
 * point, a lower tier), never more by this card.
 */
export function estimateOf(
  cards: RateCards,
  recipientDigits: string[],
  templateCategory: string | undefined,
  nowMs: number,
  currency?: string,
): Estimate {
  const day = dayOf(nowMs);
  const category = pricingCategoryOf(templateCategory);
  const { card, currency_mismatch } = cards.inForce(day, currency);
  const markets = new Map<string, { messages: number; micros: number }>();
  for (const digits of new Set(recipientDigits)) {
    const { market } = cards.placeOfPerson(digits, day);
    const known = markets.get(market) ?? { messages: 0, micros: 0 };
    known.messages += 1;
    known.micros += cards.priceMicros(market, category, day, card.currency);
    markets.set(market, known);
  }
  const micros = [...markets.values()].reduce((sum, m) => sum + m.micros, 0);
  return {
    currency: card.currency,
    amount: fromMicros(micros),
    rate_card: cardIdOf(card),
    by_market: Object.fromEntries(
      [...markets]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([market, m]) => [market, { messages: m.messages, amount: fromMicros(m.micros) }]),
    ),
    micros,
    ...(currency_mismatch && { currency_mismatch: true as const }),
  };
}

/**
 * An estimate in the client's price, where its price list is in force (decisions §27): each market's messages at
 * the list's price for the market's rate; Meta's cost kept beside it. A market the list cannot price (a cost in
 * another currency and no fixed price) leaves the estimate in Meta's cost: a sum never mixes currencies.
 */
export function inClientPrice(
  estimate: Estimate,
  list: PriceList | undefined,
  templateCategory: string | undefined,
  nowMs: number,
): Estimate {
  if (!list) return estimate;
  const day = dayOf(nowMs);
  const category = pricingCategoryOf(templateCategory);
  const markets = Object.entries(estimate.by_market).map(([market, m]) => {
    const unit = priceOf([list], {
      day,
      market,
      category,
      costMicros: toMicros(m.amount) / m.messages,
      costCurrency: estimate.currency,
      billable: true,
    });
    return unit && ([market, { messages: m.messages, micros: unit.micros * m.messages }] as const);
  });
  if (markets.some((m) => !m)) return estimate;
  const priced = markets as (readonly [string, { messages: number; micros: number }])[];
  const micros = priced.reduce((sum, [, m]) => sum + m.micros, 0);
  return {
    ...estimate,
    currency: list.currency,
    amount: fromMicros(micros),
    by_market: Object.fromEntries(priced.map(([market, m]) => [market, { messages: m.messages, amount: fromMicros(m.micros) }])),
    micros,
    price_list: list.effective_from,
    cost: { currency: estimate.currency, amount: estimate.amount },
  };
}
