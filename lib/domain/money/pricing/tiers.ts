import { monthOf } from '../../shared/calendar.ts';
import type { Log } from '../../shared/log.ts';
import { type VolumeTiers, volumeKeyOf } from '../ports.ts';
import { pricingCategoryOf } from './rate-card.ts';

/** Meta's volume tier update of a WABA (upstream-facts §9.D `VOLUME_BASED_PRICING_TIER_UPDATE`). */
export interface TierUpdate {
  waba_id: string;
  at: number;
  pricing_category: string;
  /** `<lower>:<upper|MAX>`, the month's billable volume the tier covers. */
  tier: string;
  effective_month?: string;
  /** Meta's market name (`India`, `Rest of Africa`). */
  region?: string;
}

/**
 * The portfolio whose tier count a WABA's messages join (decisions §31): the directory's `business_id`; a WABA with
 * none, or not in the directory, counts alone under its own id (Meta's ids are unique across kinds: no clash).
 */
export const tierPortfolioOf = (wabaId: string, waba: { business_id?: string } | null): string => waba?.business_id || wabaId;

/**
 * Meta's tier update overrides the ledger's count (decisions §26, §31): from now on the month's volume of that
 * market and category is at least the tier's lower bound, so the next messages of every WABA of the named WABA's
 * portfolio are priced at that tier. An update that names no market, month or readable tier is logged and left.
 */
export async function reachedTier(deps: { tiers?: VolumeTiers; log: Log }, update: TierUpdate): Promise<'applied' | 'ignored'> {
  const lower = Number(update.tier.split(':')[0]);
  const month = update.effective_month ?? monthOf(update.at);
  deps.log.info('pricing tier updated', { waba_id: update.waba_id, pricing_category: update.pricing_category, tier: update.tier, month });
  if (!deps.tiers || !update.region || !Number.isSafeInteger(lower) || lower < 1 || !/^\d{4}-\d{2}$/.test(month)) return 'ignored';
  // Meta's lower bound is the tier's first message: the volume before it is one less.
  const key = volumeKeyOf(update.region, pricingCategoryOf(update.pricing_category));
  await deps.tiers.reachedTier(update.waba_id, month, key, lower - 1);
  return 'applied';
}
