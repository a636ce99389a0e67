import type { MessageCharge } from '../../shared/message-status.ts';
import { type PriceLists, type VolumeTiers, volumeKeyOf } from '../ports.ts';
import type { BillingCurrencies } from '../ports.ts';
import { rateCards } from './cards/index.ts';
import { cardCategoryOf, chargeOf, type ReportedPricing } from './charge.ts';
import { type PriceList, priceOf } from './price-list.ts';
import { dayOf, monthOf } from '../../shared/calendar.ts';
import { BASE_CURRENCY, type PricingCategory } from './rate-card.ts';

/** A status's charge, and where it counts toward its month's volume tier. */
export interface PricedStatus {
  charge: MessageCharge;
  tierVolume?: { month: string; key: string };
}

/**
 * The currency of a WABA whose own is not known and cannot be read (ISO 4217's code for "no currency"): its
 * charges are priced at the base currency's card, marked `currency_mismatch` (decisions §26, §30), and applied.
 */
export const NO_KNOWN_CURRENCY = 'XXX';

/**
 * How one send's statuses of a batch are priced (decisions §26, §27): in its WABA's billing currency; where the
 * card in force gives volume tiers, at the tier the month's volume so far places each message in (read once a
 * batch, then counted on as the batch charges); and at its client's price where a price list is in force.
 */
export async function chargerFor(
  deps: { currencies?: BillingCurrencies; tiers?: VolumeTiers; priceLists?: Pick<PriceLists, 'lists'> },
  { wabaId, clientId }: { wabaId?: string; clientId?: number },
  atMs: number[],
) {
  const currency = wabaId && deps.currencies ? await deps.currencies.currencyOf(wabaId).catch(() => NO_KNOWN_CURRENCY) : undefined;
  const lists = clientId !== undefined && deps.priceLists && atMs.length > 0 ? await deps.priceLists.lists(clientId) : [];
  const volumes = new Map<string, Map<string, number>>();
  const tieredMonths = new Set(
    atMs
      .map(dayOf)
      .filter((day) => rateCards.inForce(day, currency).card.tiers)
      .map(monthOf),
  );
  if (wabaId && deps.tiers) for (const month of tieredMonths) volumes.set(month, await deps.tiers.monthVolumes(wabaId, month));
  return (pricing: ReportedPricing, recipientDigits: string, at: number): PricedStatus => {
    const day = dayOf(at);
    const month = monthOf(day);
    let tierVolume: PricedStatus['tierVolume'];
    const volumeBefore = (market: string, category: PricingCategory) => {
      const counted = volumes.get(month);
      if (!counted || category === 'marketing' || !rateCards.inForce(day, currency).card.tiers?.[market]?.[category]) return undefined;
      const key = volumeKeyOf(market, category);
      const before = counted.get(key) ?? 0;
      counted.set(key, before + 1);
      tierVolume = { month, key };
      return before;
    };
    const charge = chargeOf(rateCards, pricing, recipientDigits, at, { currency, volumeBefore });
    const price = clientPrice(lists, charge, day);
    // A budget counts the client's price, or the cost in the base currency (a charge in another at the base card's).
    const budgetMicros =
      price?.micros ?? (charge.currency === BASE_CURRENCY ? undefined : chargeOf(rateCards, pricing, recipientDigits, at).micros);
    return {
      charge: { ...charge, ...(price && { price }), ...(budgetMicros !== undefined && { budget_micros: budgetMicros }) },
      ...(tierVolume && { tierVolume }),
    };
  };
}

/** What the client pays for a charge, where its price list is in force that day (decisions §27). */
function clientPrice(lists: PriceList[], charge: MessageCharge, day: string) {
  const price = priceOf(lists, {
    day,
    market: charge.market,
    // A category Meta never charges costs 0: its price is 0 whatever the list's category.
    category: cardCategoryOf(charge.pricing.category) ?? 'marketing',
    costMicros: charge.micros,
    costCurrency: charge.currency,
    billable: charge.micros > 0,
  });
  return price && { micros: price.micros, currency: price.currency };
}
