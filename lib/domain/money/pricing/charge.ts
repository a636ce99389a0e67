import type { MessageCharge, MessagePricing } from '../../shared/message-status.ts';
import { toMicros } from '../../shared/money.ts';
import { CALENDAR_ZONE, dayIn } from '../../shared/calendar.ts';
import type { PricingCategory, RateCards } from './rate-card.ts';

/**
 * The card's category of Meta's `pricing.category` (upstream-facts §8–9): `marketing_lite` is marketing sent
 * through the Marketing Messages API; `authentication_international` is its own category (spelled with a
 * hyphen on Meta's pricing page); `service` is charged at the utility rate where Meta says it is billable
 * (from 2026-10-01). Anything else is never charged.
 */
const PRICED: Record<string, PricingCategory> = {
  marketing: 'marketing',
  marketing_lite: 'marketing',
  marketing_max_price: 'marketing',
  utility: 'utility',
  service: 'utility',
  authentication: 'authentication',
  authentication_international: 'authentication_international',
};

/** The card's category Meta's `pricing.category` is priced at, or undefined for one never charged. */
export const cardCategoryOf = (category: string): PricingCategory | undefined => PRICED[categoryName(category)];

/** Meta's category as the ledger and the send's counts name it: one spelling for authentication-international. */
export const categoryName = (category: string) => category.replace(/-/g, '_');

/**
 * The ledger's category of a max-price charge (decisions §34): a marketing message of the Marketing Messages API
 * sent with a max price, charged at the price Meta reports, on usage and statement lines of its own.
 */
export const MAX_PRICE_CATEGORY = 'marketing_max_price';

/** What Meta charged for a max-price message (decisions §34), as its status reports it: per message, in a currency. */
export interface MaxPriceCharged {
  charged_amount: number;
  currency: string;
}

/** Meta's `pricing` as a status carries it: `billable` is deprecated, so it may be absent (decisions §30). */
export type ReportedPricing = Omit<MessagePricing, 'billable'> & { billable?: boolean; max_price?: MaxPriceCharged };

/** Whether Meta bills a message: its `billable` where given, else its `type` (`regular` is, `free_*` is not). */
export const billableOf = (pricing: ReportedPricing) => pricing.billable ?? !pricing.type.startsWith('free_');

/** Meta's pricing with `billable` decided where the status left it out. */
export const pricingOf = ({ max_price: _maxPrice, ...pricing }: ReportedPricing): MessagePricing => ({
  ...pricing,
  billable: billableOf(pricing),
});

/** Whether Meta charges a message so priced: `billable`, and not a free window's `type`. */
export const isCharged = (pricing: ReportedPricing) => billableOf(pricing) && !pricing.type.startsWith('free_');

/** Where a charge is priced: the WABA's billing currency and zone, and the month's billable volume before it (tiers). */
export interface ChargeContext {
  currency?: string;
  /** The IANA zone of the WABA's days (decisions §31): the day charged and the card in force are its; UTC if absent. */
  zone?: string;
  /** The month's billable messages of the market and category before this one, where the card has tiers. */
  volumeBefore?: (market: string, category: PricingCategory) => number | undefined;
}

/**
 * What a message Meta reported delivered costs (decisions §26, §31): the rate in force on the day of the status in
 * the WABA's zone for the recipient's market and Meta's category, at the WABA's tier, in the WABA's currency (the
 * base currency's card where its own has none, said so); 0 where Meta does not charge it.
 */
export function chargeOf(
  cards: RateCards,
  pricing: ReportedPricing,
  recipientDigits: string,
  atMs: number,
  context: ChargeContext = {},
): MessageCharge {
  const day = dayIn(atMs, context.zone ?? CALENDAR_ZONE);
  const { market } = cards.placeOfPerson(recipientDigits, day);
  if (pricing.max_price) return maxPriceChargeOf(pricing, pricing.max_price, market);
  const { card, currency_mismatch } = cards.inForce(day, context.currency, [market]);
  const category = cardCategoryOf(pricing.category);
  // Meta puts no volume tiers on `service` (docs/rate-cards.md §5): its list rate, and it counts toward no band.
  const tiered = categoryName(pricing.category) !== 'service';
  const micros =
    isCharged(pricing) && category
      ? cards.priceMicros(market, category, day, card.currency, tiered ? context.volumeBefore?.(market, category) : undefined)
      : 0;
  return {
    pricing: { ...pricingOf(pricing), category: categoryName(pricing.category) },
    market,
    micros,
    currency: card.currency,
    ...(currency_mismatch && { currency_mismatch: true }),
  };
}

/**
 * A max-price message's charge (decisions §34): the price Meta reports it charged (at or below the max), in its
 * currency, under the ledger's category of its own, so usage and statements show it apart from the card's charges.
 */
function maxPriceChargeOf(pricing: ReportedPricing, charged: MaxPriceCharged, market: string): MessageCharge {
  return {
    pricing: { ...pricingOf(pricing), category: MAX_PRICE_CATEGORY },
    market,
    micros: isCharged(pricing) ? toMicros(charged.charged_amount) : 0,
    currency: charged.currency,
  };
}
