import { describe, expect, it } from 'vitest';
import { TUNED_SETTINGS } from '#lib/domain/sends/dispatch/settings.ts';
import { ATTEMPTS, BACKOFF_MS, IN_FLIGHT, MAX_BACKOFF_MS, SLICE_MS } from '#lib/domain/sends/dispatch/tuning.ts';

/** The dispatcher's settings (settings.ts): those it tunes itself come from its table; the rest are handed in. */
describe('the dispatcher’s tuned settings', () => {
  it('are the tuning table’s values, and none of what lib/config.ts sets (each default written once)', () => {
    // Prepare
    const configured = ['messagesPerSecondCap', 'safetyMs', 'leaseMarginMs', 'pausedRecheckMs'];
    // Act
    const names = Object.keys(TUNED_SETTINGS);
    // Assess
    expect(TUNED_SETTINGS).toEqual({
      attempts: ATTEMPTS,
      backoffMs: BACKOFF_MS,
      maxBackoffMs: MAX_BACKOFF_MS,
      inFlight: IN_FLIGHT,
      sliceMs: SLICE_MS,
    });
    expect(names.filter((name) => configured.includes(name))).toEqual([]);
  });
});
