/**
 * Meta's rate card (decisions §24, upstream-facts §8): USD per delivered template message, by Meta's market and
 * the message's pricing category. A card is in force from its `effective_from` day (UTC) until the next card's;
 * a new card is a new file in ./cards/, never an edit of a past one, so what a past message cost stays true.
 *
 * Amounts are kept in micro-dollars (integers): sums of thousands of prices stay exact to the cent.
 */
export type PricingCategory = 'marketing' | 'utility' | 'authentication' | 'authentication-international';

export interface RateCard {
  /** The first day (YYYY-MM-DD, UTC) the card's prices apply. */
  effective_from: string;
  currency: 'USD';
  /** Where the prices were taken from, and when. */
  source: { title: string; url: string; taken_on: string; note?: string };
  /** USD a message, by market and category; a category a market does not list costs the market `Other`'s. */
  markets: Record<string, Partial<Record<PricingCategory, number>>>;
  /** Calling code (digits) → the country (ISO 3166 alpha-2) and its Meta market; longest code wins. */
  calling_codes: Record<string, { country: string; market: string }>;
}

/** The market of numbers the card does not map: Meta's own catch-all market. */
export const OTHER_MARKET = 'Other';

export const toMicros = (usd: number) => Math.round(usd * 1_000_000);
/** Micro-dollars as USD, exact to the micro-dollar. */
export const fromMicros = (micros: number) => Math.round(micros) / 1_000_000;

/** The pricing category of a template's category (Meta's names, upper case), as the card names it. */
export function pricingCategoryOf(templateCategory: string | undefined): PricingCategory {
  const category = (templateCategory ?? 'MARKETING').toLowerCase();
  return category === 'utility' || category === 'authentication' || category === 'authentication-international' ? category : 'marketing';
}

export class RateCards {
  private readonly cards: RateCard[];

  constructor(cards: RateCard[]) {
    if (cards.length === 0) throw new Error('at least one rate card');
    this.cards = [...cards].sort((a, b) => a.effective_from.localeCompare(b.effective_from));
  }

  /** The card in force on a day (YYYY-MM-DD); the first card for days before it. */
  on(day: string): RateCard {
    return this.cards.findLast((card) => card.effective_from <= day) ?? this.cards[0];
  }

  /** A recipient's country and market on a day, from the digits of their number. */
  placeOf(digits: string, day: string): { country: string; market: string } {
    const codes = this.on(day).calling_codes;
    for (let length = Math.min(4, digits.length); length > 0; length--) {
      const found = codes[digits.slice(0, length)];
      if (found) return found;
    }
    return { country: 'ZZ', market: OTHER_MARKET };
  }

  /** The market of a region (ISO alpha-2, as pricing_analytics names countries) on a day; one the card lacks is `Other`. */
  marketOfRegion(region: string, day: string): string {
    return Object.values(this.on(day).calling_codes).find((c) => c.country === region)?.market ?? OTHER_MARKET;
  }

  /** What one billable message to this market and category costs on a day, in micro-dollars. */
  priceMicros(market: string, category: PricingCategory, day: string): number {
    const card = this.on(day);
    const prices = card.markets[market] ?? card.markets[OTHER_MARKET] ?? {};
    const fallback = card.markets[OTHER_MARKET] ?? {};
    // An authentication-international message in a market with no such rate is priced as authentication.
    const usd =
      prices[category] ??
      (category === 'authentication-international' ? prices.authentication : undefined) ??
      fallback[category] ??
      fallback.authentication ??
      0;
    return toMicros(usd);
  }
}

/** The UTC day of an instant. */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
