import type { Log } from '../shared/log.ts';
import type { BillingCurrencies, KnownCurrencies } from './ports.ts';

/** How long a learned currency is used before Graph is asked again (decisions §30: refreshed daily). */
export const CURRENCY_REFRESH_MS = 24 * 60 * 60 * 1000;
/** After a failed read, Graph is left alone this long: an outage must not slow every status batch. */
export const CURRENCY_RETRY_MS = 5 * 60 * 1000;

/**
 * A WABA's billing currency as the status path reads it (decisions §30): the one kept in the table, asked of
 * Graph when the WABA is first seen or the kept one is a day old. A failed read uses the last known one; with
 * none known it fails, and the caller prices without one.
 */
export class KeptBillingCurrencies implements BillingCurrencies {
  /** What this process read or learned, so a batch reads the table at most once a WABA a refresh. */
  private readonly remembered = new Map<string, { currency: string; learned_at: string }>();
  /** When Graph last failed to answer, by WABA. */
  private readonly failedAt = new Map<string, number>();

  constructor(private readonly deps: { known: KnownCurrencies; upstream: BillingCurrencies; log: Log; now?: () => number }) {}

  async currencyOf(wabaId: string): Promise<string> {
    const now = this.deps.now?.() ?? Date.now();
    const kept = this.remembered.get(wabaId) ?? (await this.deps.known.get(wabaId)) ?? undefined;
    if (kept && now - Date.parse(kept.learned_at) < CURRENCY_REFRESH_MS) {
      this.remembered.set(wabaId, kept);
      return kept.currency;
    }
    if (now - (this.failedAt.get(wabaId) ?? Number.NEGATIVE_INFINITY) < CURRENCY_RETRY_MS) return this.lastKnown(wabaId, kept);
    try {
      const currency = await this.deps.upstream.currencyOf(wabaId);
      const learned = { currency, learned_at: new Date(now).toISOString() };
      await this.deps.known.put(wabaId, currency, learned.learned_at);
      this.remembered.set(wabaId, learned);
      this.failedAt.delete(wabaId);
      return currency;
    } catch (error) {
      this.failedAt.set(wabaId, now);
      this.deps.log.warn('billing currency not read from Graph', { waba_id: wabaId, error: String(error) });
      return this.lastKnown(wabaId, kept);
    }
  }

  /** Graph cannot say: the currency last learned (a WABA's practically never changes), or a failure with none. */
  private lastKnown(wabaId: string, kept: { currency: string; learned_at: string } | undefined) {
    if (!kept) throw new Error(`no billing currency known for WABA ${wabaId}`);
    return kept.currency;
  }
}
