import type { KnownCurrencies } from '#lib/domain/money/ports.ts';

/** Each WABA's billing currency as last learned (decisions §30), in memory. */
export class MemoryKnownCurrencies implements KnownCurrencies {
  readonly currencies = new Map<string, { currency: string; learned_at: string }>();

  async get(wabaId: string) {
    const known = this.currencies.get(wabaId);
    return known ? { ...known } : null;
  }

  async put(wabaId: string, currency: string, learnedAt: string) {
    this.currencies.set(wabaId, { currency, learned_at: learnedAt });
  }
}
