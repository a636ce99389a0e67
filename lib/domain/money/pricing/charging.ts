import type { MessageCharge } from '../../shared/message-status.ts';
import { type PriceLists, type TierVolume, type VolumeTiers, volumeKeyOf } from '../ports.ts';
import type { BillingCurrencies } from '../ports.ts';
import { rateCards } from './cards/index.ts';
import { cardCategoryOf, chargeOf, MAX_PRICE_CATEGORY, type ReportedPricing } from './charge.ts';
import { type PriceList, priceOf } from './price-list.ts';
import { budgetCounter, type BudgetCounterDeps } from '../budget-amount.ts';
import { dayIn, monthOf } from '../../shared/calendar.ts';
import { billingOfWaba } from '../billing-currencies.ts';
import { DEFAULT_WABA_ZONE } from '../../shared/meta-timezones.ts';
import type { PricingCategory } from './rate-card.ts';

/** A status's charge, and where it counts toward its portfolio's month's volume tier. */
export interface PricedStatus {
  charge: MessageCharge;
  /** The day it is charged on: the WABA's day (decisions §31), the ledger's. */
  day: string;
  tierVolume?: TierVolume;
}

/**
 * The currency of a WABA whose own is not known and cannot be read (ISO 4217's code for "no currency"): its
 * charges are priced at the base currency's card, marked `currency_mismatch` (decisions §26, §30), and applied.
 */
export const NO_KNOWN_CURRENCY = 'XXX';

/**
 * How one send's statuses of a batch are priced (decisions §26, §27): in its WABA's billing currency; where the
 * card in force gives volume tiers, at the tier its portfolio's month's volume so far places each message in (read
 * once a batch, then counted on as the batch charges); and at its client's price where a price list is in force.
 */
export async function chargerFor(
  deps: { currencies?: BillingCurrencies; tiers?: VolumeTiers; priceLists?: Pick<PriceLists, 'lists'> } & BudgetCounterDeps,
  { wabaId, clientId }: { wabaId?: string; clientId?: number },
  atMs: number[],
) {
  // The WABA's currency and clock (decisions §31): a WABA whose currency cannot be read is priced as §30 says, in UTC days.
  const unknown = { currency: NO_KNOWN_CURRENCY, zone: DEFAULT_WABA_ZONE };
  const billing = wabaId && deps.currencies ? await billingOfWaba(deps.currencies, wabaId).catch(() => unknown) : undefined;
  const { currency, zone = DEFAULT_WABA_ZONE } = billing ?? {};
  const dayAt = (at: number) => dayIn(at, zone);
  const lists = clientId !== undefined && deps.priceLists && atMs.length > 0 ? await deps.priceLists.lists(clientId) : [];
  const budgetCounts = await budgetCounter(deps, clientId, lists);
  const volumes = new Map<string, Map<string, number>>();
  const tieredMonths = new Set(
    atMs
      .map(dayAt)
      .filter((day) => rateCards.inForce(day, currency).card.tiers)
      .map(monthOf),
  );
  // Tiers count per business portfolio, across its WABAs (decisions §31).
  const portfolio = wabaId && deps.tiers && tieredMonths.size > 0 ? await deps.tiers.portfolioOf(wabaId) : undefined;
  if (portfolio && deps.tiers) for (const month of tieredMonths) volumes.set(month, await deps.tiers.monthVolumes(portfolio, month));
  return (pricing: ReportedPricing, recipientDigits: string, at: number): PricedStatus => {
    const day = dayAt(at);
    const month = monthOf(day);
    let tierVolume: PricedStatus['tierVolume'];
    const volumeBefore = (market: string, category: PricingCategory) => {
      const counted = volumes.get(month);
      if (!counted || category === 'marketing' || !rateCards.inForce(day, currency).card.tiers?.[market]?.[category]) return undefined;
      const key = volumeKeyOf(market, category);
      const before = counted.get(key) ?? 0;
      counted.set(key, before + 1);
      tierVolume = { month, key, portfolio };
      return before;
    };
    const charge = chargeOf(rateCards, pricing, recipientDigits, at, { currency, zone, volumeBefore });
    const price = clientPrice(lists, charge, day);
    const budgetMicros = budgetCounts({
      charge,
      price,
      day,
      baseCostMicros: () => chargeOf(rateCards, pricing, recipientDigits, at, { zone }).micros,
    });
    return {
      charge: { ...charge, ...(price && { price }), ...(budgetMicros !== undefined && { budget_micros: budgetMicros }) },
      day,
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
    ...(charge.pricing.category === MAX_PRICE_CATEGORY && { maxPrice: true }),
  });
  return price && { micros: price.micros, currency: price.currency };
}
