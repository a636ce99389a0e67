import type { KnownCurrencies } from '#lib/domain/money/ports.ts';

/** Each WABA's billing currency and timezone id as last learned (decisions §30, §31), in memory. */
export class MemoryKnownCurrencies implements KnownCurrencies {
  readonly currencies = new Map<string, { currency: string; timezone_id?: string; learned_at: string }>();

  async get(wabaId: string) {
    const known = this.currencies.get(wabaId);
    return known ? { ...known } : null;
  }

  async put(wabaId: string, currency: string, learnedAt: string, timezoneId?: string) {
    this.currencies.set(wabaId, { currency, ...(timezoneId !== undefined && { timezone_id: timezoneId }), learned_at: learnedAt });
  }
}
