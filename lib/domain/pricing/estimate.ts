import { dayOf, fromMicros, pricingCategoryOf, type RateCards } from './rate-card.ts';

/** What a send would cost if every message were delivered and billable (decisions §24), in micro-dollars too. */
export interface Estimate {
  currency: 'USD';
  amount: number;
  rate_card: string;
  by_market: Record<string, { messages: number; amount: number }>;
  micros: number;
}

/**
 * A send's estimate: its unique recipients (by the digits of their number) priced by market at the template's
 * category, on the card in force today. Meta may charge less (a free window, an entry point), never more by
 * this card.
 */
export function estimateOf(cards: RateCards, recipientDigits: string[], templateCategory: string | undefined, nowMs: number): Estimate {
  const day = dayOf(nowMs);
  const category = pricingCategoryOf(templateCategory);
  const markets = new Map<string, { messages: number; micros: number }>();
  for (const digits of new Set(recipientDigits)) {
    const { market } = cards.placeOf(digits, day);
    const known = markets.get(market) ?? { messages: 0, micros: 0 };
    known.messages += 1;
    known.micros += cards.priceMicros(market, category, day);
    markets.set(market, known);
  }
  const micros = [...markets.values()].reduce((sum, m) => sum + m.micros, 0);
  return {
    currency: 'USD',
    amount: fromMicros(micros),
    rate_card: cards.on(day).effective_from,
    by_market: Object.fromEntries(
      [...markets]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([market, m]) => [market, { messages: m.messages, amount: fromMicros(m.micros) }]),
    ),
    micros,
  };
}
