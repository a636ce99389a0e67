import type { MessageCharge, MessagePricing } from '../delivery.ts';
import { type VolumeTiers, volumeKeyOf } from '../ports/costs.ts';
import type { BillingCurrencies } from '../ports/upstream.ts';
import { rateCards } from './cards/index.ts';
import { chargeOf } from './charge.ts';
import { BASE_CURRENCY, dayOf, type PricingCategory } from './rate-card.ts';

/** A status's charge, and where it counts toward its month's volume tier. */
export interface PricedStatus {
  charge: MessageCharge;
  tierVolume?: { month: string; key: string };
}

/**
 * How one WABA's statuses of a batch are priced (decisions §26): in the WABA's billing currency, and, where the
 * card in force gives volume tiers, at the tier the month's volume so far places each message in (read once a
 * batch, then counted on as the batch charges).
 */
export async function chargerFor(
  deps: { currencies?: BillingCurrencies; tiers?: VolumeTiers },
  wabaId: string | undefined,
  atMs: number[],
) {
  const currency = wabaId && deps.currencies ? await deps.currencies.currencyOf(wabaId) : undefined;
  const volumes = new Map<string, Map<string, number>>();
  const tieredMonths = new Set(
    atMs
      .map(dayOf)
      .filter((day) => rateCards.inForce(day, currency).card.tiers)
      .map((day) => day.slice(0, 7)),
  );
  if (wabaId && deps.tiers) for (const month of tieredMonths) volumes.set(month, await deps.tiers.monthVolumes(wabaId, month));
  return (pricing: MessagePricing, recipientDigits: string, at: number): PricedStatus => {
    const day = dayOf(at);
    const month = day.slice(0, 7);
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
    // A budget is in the base currency (decisions §27): a charge in another counts at the base card's price.
    const budgetMicros = charge.currency === BASE_CURRENCY ? undefined : chargeOf(rateCards, pricing, recipientDigits, at).micros;
    return { charge: { ...charge, ...(budgetMicros !== undefined && { budget_micros: budgetMicros }) }, ...(tierVolume && { tierVolume }) };
  };
}
