import type { MarketingOnboardings, MarketingOnboardingState } from '#lib/domain/sends/ports.ts';

/** Each WABA's onboarding to the Marketing Messages API (decisions §28), in memory. */
export class MemoryMarketingOnboardings implements MarketingOnboardings {
  readonly states = new Map<string, MarketingOnboardingState>();

  async get(wabaId: string) {
    const state = this.states.get(wabaId);
    return state ? { ...state } : null;
  }

  async put(wabaId: string, state: MarketingOnboardingState) {
    this.states.set(wabaId, { ...state });
  }
}
