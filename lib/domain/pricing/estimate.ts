import { cardIdOf, dayOf, fromMicros, pricingCategoryOf, type RateCards } from './rate-card.ts';

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
    const { market } = cards.placeOf(digits, day);
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
