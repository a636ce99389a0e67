import type { ChannelRecord } from '../shared/directory.ts';
import type { MetaCostEntry } from './ports.ts';
import { rateCards } from './pricing/cards/index.ts';

/**
 * A client's part of Meta's own figures as kept before they were shared by who sent (decisions §26; since §32,
 * ./meta-shares.ts): the data points of its own numbers; a point with no number is no client's.
 */
export function clientsPoints(entries: MetaCostEntry[], numbers: Set<string>) {
  return entries.filter((e) => e.phone_number !== undefined && numbers.has(e.phone_number));
}

/** The digits of a client's numbers (its channels' DIDs), deleted ones too: what they sent is still the client's. */
export const numbersOf = (channels: ChannelRecord[]) => new Set(channels.map((c) => c.wa_id.replace(/\D/g, '')));

/** The market Meta's figure is in: pricing_analytics names a region, the card says its market on the day. */
export const marketOfPoint = (entry: MetaCostEntry) => rateCards.marketOfRegion(entry.country, entry.day);

/**
 * A sum of Meta's costs: null (unknown) once a point has none, never a smaller sum. Of one currency only (decisions
 * §31): its callers sum a WABA's day (one currency) or a usage row's `meta_currency` (UsageTallies.addMeta).
 */
export const addCost = (sum: number | null | undefined, entry: { micros?: number }) =>
  sum === null || entry.micros === undefined ? null : (sum ?? 0) + entry.micros;
