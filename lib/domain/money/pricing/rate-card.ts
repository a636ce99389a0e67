import { BSUID, regionOfBsuid } from '../../people/person.ts';
import { toMicros } from '../../shared/money.ts';
import { regionOf } from './region.ts';

/**
 * Meta's rate cards (decisions §26, upstream-facts §8–9): what a delivered template message costs, by Meta's
 * market and the message's pricing category, in one currency. A card is in force from its `effective_from` day
 * until the next card of its currency; a new card is a new file in ./cards/, never an edit of a card in force,
 * so what a past message cost stays true (docs/rate-cards.md: how to add one and check it).
 *
 * Amounts are kept in micro-units of the card's currency (shared/money.ts).
 */
export const PRICING_CATEGORIES = ['marketing', 'utility', 'authentication', 'authentication_international'] as const;
export type PricingCategory = (typeof PRICING_CATEGORIES)[number];
/** The categories Meta prices in volume tiers (upstream-facts §9.D; its tier CSV has authentication-international too). */
export type TieredCategory = Exclude<PricingCategory, 'marketing'>;

export interface CardSource {
  title: string;
  /** A URL, or `github:<owner>/<repo>:<path>@<commit>` for a public repository file. */
  url: string;
  taken_on: string;
  /** What the source gave: which rows, which columns. */
  covers?: string;
}

/** A row where the sources disagree, and which value the card keeps. */
export interface Disagreement {
  market?: string;
  region?: string;
  category?: string;
  /** null: no source gave the value (the card prices without it, docs/rate-cards.md). */
  kept: number | string | null;
  others: { source: string; value: number | string | null }[];
  why: string;
}

export type MarketRates = Record<Exclude<PricingCategory, 'authentication_international'>, number> & {
  authentication_international?: number;
};

/** A tier of a month's billable volume (messages `from`–`to`, `to` null for no end) and its rate. */
export interface Tier {
  from: number;
  to: number | null;
  rate: number;
}

/** Which market each region (ISO 3166 alpha-2, as libphonenumber-js names it) belongs to from a day on. */
export interface RegionMap {
  effective_from: string;
  sources: CardSource[];
  regions: Record<string, string>;
  disagreements?: Disagreement[];
}

export interface RateCard {
  /** The first day (YYYY-MM-DD) the card's prices apply. */
  effective_from: string;
  /** ISO 4217: the currency of every amount on the card. */
  currency: string;
  /** Where the prices were taken from, and when: at least two sources. */
  sources: CardSource[];
  disagreements: Disagreement[];
  /** Every market Meta prices on the card's dates, `Other` among them. */
  markets: Record<string, MarketRates>;
  /** Volume tiers by market and category, where Meta publishes them. */
  tiers?: Record<string, Partial<Record<TieredCategory, Tier[]>>>;
  /** The market of every region on the card's dates. */
  regions: RegionMap;
  /**
   * A card that gives only the markets a source printed (decisions §31): it prices those, and a message to another
   * market is priced as if the currency had no card that date.
   */
  partial?: true;
}

/** A card as its file names it: `meta-<effective_from>-<currency>`. */
export const cardIdOf = (card: Pick<RateCard, 'effective_from' | 'currency'>) => `meta-${card.effective_from}-${card.currency}`;

/** Meta's catch-all market: a region the card names as `Other` (never a region left out). */
export const OTHER_MARKET = 'Other';
/** The currency every day has a card in: a WABA billed in a currency without one is priced in it. */
export const BASE_CURRENCY = 'USD';

/** The pricing category of a template's category (Meta's names, upper case), as the card names it. */
export function pricingCategoryOf(templateCategory: string | undefined): PricingCategory {
  const category = (templateCategory ?? 'MARKETING').toLowerCase().replace('-', '_');
  return (PRICING_CATEGORIES as readonly string[]).includes(category) ? (category as PricingCategory) : 'marketing';
}

/** Where a number is priced: its region and that region's market on the day. */
export interface Place {
  region: string;
  market: string;
}

/** The card that prices a day in a currency, and whether it had to be the base currency's. */
export interface CardInForce {
  card: RateCard;
  currency_mismatch: boolean;
}

export class RateCards {
  private readonly byCurrency = new Map<string, RateCard[]>();

  constructor(cards: RateCard[]) {
    for (const card of [...cards].sort((a, b) => a.effective_from.localeCompare(b.effective_from)))
      this.byCurrency.set(card.currency, [...(this.byCurrency.get(card.currency) ?? []), card]);
    if (!this.byCurrency.has(BASE_CURRENCY)) throw new Error(`at least one ${BASE_CURRENCY} rate card`);
  }

  /** Every card, oldest first by currency. */
  all(): RateCard[] {
    return [...this.byCurrency.values()].flat();
  }

  /**
   * The card in force on a day (YYYY-MM-DD) in a currency for messages to `markets`: the currency's card of the
   * quarter the base currency's card in force starts. A currency with no card of that quarter, or a partial one
   * that lacks one of the markets (or asked of no market), is priced on the base currency's card, said so
   * (decisions §26, §31); a day before every card takes the first.
   */
  inForce(day: string, currency = BASE_CURRENCY, markets: readonly string[] = []): CardInForce {
    const bases = this.byCurrency.get(BASE_CURRENCY)!;
    const base = bases.findLast((card) => card.effective_from <= day) ?? bases[0];
    // Meta publishes every currency's card each quarter: an older card of the currency is not in force.
    const own = this.byCurrency.get(currency)?.find((card) => card.effective_from === base.effective_from);
    if (own && prices(own, markets)) return { card: own, currency_mismatch: false };
    return { card: base, currency_mismatch: currency !== BASE_CURRENCY };
  }

  /** The base currency's card in force on a day. */
  on(day: string): RateCard {
    return this.inForce(day).card;
  }

  /** The market of a region (ISO alpha-2) on a day; a region no card knows is `Other`. */
  marketOfRegion(region: string, day: string): string {
    return this.on(day).regions.regions[region] ?? OTHER_MARKET;
  }

  /** A recipient's region and market on a day, from the digits of their number (libphonenumber-js). */
  placeOf(digits: string, day: string): Place {
    const region = regionOf(digits);
    return { region, market: this.marketOfRegion(region, day) };
  }

  /**
   * A recipient's region and market on a day (decisions §28): by its number's digits, or by a BSUID's prefix (its
   * region) when that is all it has. A string is either: a BSUID where it matches one, else a number's digits.
   */
  placeOfPerson(person: { phone?: string; user_id?: string } | string, day: string): Place {
    const known = typeof person === 'string' ? (BSUID.test(person) ? { user_id: person } : { phone: person }) : person;
    if (known.phone !== undefined || known.user_id === undefined) return this.placeOf((known.phone ?? '').replace(/\D/g, ''), day);
    const region = regionOfBsuid(known.user_id);
    return { region, market: this.marketOfRegion(region, day) };
  }

  /**
   * What one billable message to this market and category costs on a day in a currency, in micro-units (in the
   * base currency where the currency's card does not price the market: `inForce` says which). An
   * authentication-international message where the market has no such rate is priced as authentication. Where
   * the card gives tiers, `volume` (the month's billable messages before this one) picks the tier.
   */
  priceMicros(market: string, category: PricingCategory, day: string, currency = BASE_CURRENCY, volume?: number): number {
    const { card } = this.inForce(day, currency, [market]);
    const rates = card.markets[market] ?? card.markets[OTHER_MARKET];
    const tiers = category === 'marketing' ? undefined : card.tiers?.[market]?.[category];
    const tier = volume === undefined ? undefined : tiers?.find((t) => volume + 1 >= t.from && (t.to === null || volume + 1 <= t.to));
    const rate = tier?.rate ?? rates[category] ?? rates.authentication;
    return toMicros(rate);
  }
}

/** Whether a card prices every one of the markets: a whole card does; a partial one only the markets it gives. */
const prices = (card: RateCard, markets: readonly string[]) =>
  !card.partial || (markets.length > 0 && markets.every((market) => Object.hasOwn(card.markets, market)));
