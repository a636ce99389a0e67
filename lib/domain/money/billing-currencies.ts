import type { Log } from '../shared/log.ts';
import { DEFAULT_WABA_ZONE, zoneOfMetaTimezone } from '../shared/meta-timezones.ts';
import type { BillingCurrencies, BillingFields, KnownCurrencies, WabaBilling } from './ports.ts';

/** How long a learned currency is used before Graph is asked again (decisions §30: refreshed daily). */
export const CURRENCY_REFRESH_MS = 24 * 60 * 60 * 1000;
/** After a failed read, Graph is left alone this long: an outage must not slow every status batch. */
export const CURRENCY_RETRY_MS = 5 * 60 * 1000;

/** A WABA's billing as kept: Graph's fields and when they were learned. */
type Kept = BillingFields & { learned_at: string };

/**
 * A WABA's billing as the status path reads it (decisions §30, §31): its currency and Meta's `timezone_id` as kept
 * in the table, asked of Graph when the WABA is first seen, when the kept one is a day old, or when it was kept
 * before its timezone was (read once more to learn it). A failed read uses the last known one; with none known it
 * fails, and the caller prices without one.
 */
export class KeptBillingCurrencies implements BillingCurrencies {
  /** What this process read or learned, so a batch reads the table at most once a WABA a refresh. */
  private readonly remembered = new Map<string, Kept>();
  /** When Graph last failed to answer, by WABA. */
  private readonly failedAt = new Map<string, number>();
  /** The unknown timezone ids already logged, so a batch logs each once. */
  private readonly unknownZones = new Set<string>();

  constructor(private readonly deps: { known: KnownCurrencies; upstream: BillingCurrencies; log: Log; now?: () => number }) {}

  async currencyOf(wabaId: string): Promise<string> {
    return (await this.keptOf(wabaId)).currency;
  }

  /** The WABA's currency and the zone of its days: UTC where Meta's id is missing, or unknown (logged). */
  async billingOf(wabaId: string): Promise<WabaBilling> {
    const { currency, timezone_id } = await this.keptOf(wabaId);
    const zone = zoneOfMetaTimezone(timezone_id);
    if (timezone_id !== undefined && !zone && !this.unknownZones.has(timezone_id)) {
      this.unknownZones.add(timezone_id);
      this.deps.log.warn('WABA timezone id unknown: its days are counted in UTC', { waba_id: wabaId, timezone_id });
    }
    return { currency, zone: zone ?? DEFAULT_WABA_ZONE };
  }

  private async keptOf(wabaId: string): Promise<Kept> {
    const now = this.deps.now?.() ?? Date.now();
    const kept = this.remembered.get(wabaId) ?? (await this.deps.known.get(wabaId)) ?? undefined;
    if (kept && this.isFresh(kept, now)) {
      this.remembered.set(wabaId, kept);
      return kept;
    }
    if (now - (this.failedAt.get(wabaId) ?? Number.NEGATIVE_INFINITY) < CURRENCY_RETRY_MS) return this.lastKnown(wabaId, kept);
    try {
      // A source that reads only the currency keeps the timezone already learned.
      const fields = { ...(kept?.timezone_id !== undefined && { timezone_id: kept.timezone_id }), ...(await this.readGraph(wabaId)) };
      const learned: Kept = { ...fields, learned_at: new Date(now).toISOString() };
      await this.deps.known.put(wabaId, fields.currency, learned.learned_at, fields.timezone_id);
      this.remembered.set(wabaId, learned);
      this.failedAt.delete(wabaId);
      return learned;
    } catch (error) {
      this.failedAt.set(wabaId, now);
      this.deps.log.warn('billing currency not read from Graph', { waba_id: wabaId, error: String(error) });
      return this.lastKnown(wabaId, kept);
    }
  }

  /** A day old is stale; so is one kept without its timezone where Graph can say it. */
  private isFresh(kept: Kept, now: number) {
    const timezoneMissing = kept.timezone_id === undefined && this.deps.upstream.billingFieldsOf !== undefined;
    return now - Date.parse(kept.learned_at) < CURRENCY_REFRESH_MS && !timezoneMissing;
  }

  private async readGraph(wabaId: string): Promise<BillingFields> {
    const { upstream } = this.deps;
    return upstream.billingFieldsOf ? upstream.billingFieldsOf(wabaId) : { currency: await upstream.currencyOf(wabaId) };
  }

  /** Graph cannot say: what was last learned (a WABA's practically never changes), or a failure with none. */
  private lastKnown(wabaId: string, kept: Kept | undefined) {
    if (!kept) throw new Error(`no billing currency known for WABA ${wabaId}`);
    return kept;
  }
}

/**
 * A WABA's currency and zone from any source: the kept one's, Graph's (an unknown id counting in UTC), or UTC for a
 * source that knows only the currency.
 */
export async function billingOfWaba(currencies: BillingCurrencies, wabaId: string): Promise<WabaBilling> {
  if (currencies.billingOf) return currencies.billingOf(wabaId);
  if (!currencies.billingFieldsOf) return { currency: await currencies.currencyOf(wabaId), zone: DEFAULT_WABA_ZONE };
  const { currency, timezone_id } = await currencies.billingFieldsOf(wabaId);
  return { currency, zone: zoneOfMetaTimezone(timezone_id) ?? DEFAULT_WABA_ZONE };
}
