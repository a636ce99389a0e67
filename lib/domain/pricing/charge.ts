import type { MessageCharge, MessagePricing } from '../delivery.ts';
import { dayOf, type PricingCategory, type RateCards } from './rate-card.ts';

/** Meta's pricing categories priced at a card's category (marketing_lite is marketing sent another way). */
const PRICED: Record<string, PricingCategory> = {
  marketing: 'marketing',
  marketing_lite: 'marketing',
  utility: 'utility',
  authentication: 'authentication',
  'authentication-international': 'authentication-international',
};

/**
 * What a message Meta reported delivered costs (decisions §24): the rate card's price on the day of the status
 * for the recipient's market and the pricing's category when `billable`; 0 otherwise (service, free windows).
 */
export function chargeOf(cards: RateCards, pricing: MessagePricing, recipientDigits: string, atMs: number): MessageCharge {
  const day = dayOf(atMs);
  const { market } = cards.placeOf(recipientDigits, day);
  const category = PRICED[pricing.category];
  const micros = pricing.billable && category ? cards.priceMicros(market, category, day) : 0;
  return { pricing, market, micros };
}
