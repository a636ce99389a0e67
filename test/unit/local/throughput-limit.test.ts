import { describe, expect, it } from 'vitest';
import { ThroughputLimit } from '../../../local/standins/graph/throughput-limit.ts';

/** The emulator's stand-in for Meta's per-number throughput limit (upstream-facts §6.3), on given times. */
describe("Meta's throughput limit at the emulator", () => {
  it('admits a number’s level and its burst in any rolling second, refuses the rest, and admits again once the second has passed', () => {
    // Prepare: 80/s with a tenth of burst: 88 in any second
    const limit = new ThroughputLimit(0.1);
    // Act: 100 messages in the first 500 ms, then 10 more a second later
    const first = Array.from({ length: 100 }, (_, i) => limit.admit('p1', 80, 1_000 + i * 5));
    const later = Array.from({ length: 10 }, (_, i) => limit.admit('p1', 80, 2_600 + i));
    // Assess
    expect(first.filter(Boolean)).toHaveLength(88);
    expect(first.slice(0, 88).every(Boolean)).toBe(true);
    expect(later.every(Boolean)).toBe(true);
    expect(limit.refused.get('p1')).toBe(12);
  });

  it('keeps each number apart, paces an even 80/s without a refusal, and takes a lower limit a test sets', () => {
    // Prepare
    const limit = new ThroughputLimit(0);
    limit.overrides.set('slow', { perSecond: 10, burst: 0 });
    // Act: 80/s for 5 s on one number; 20/s for 1 s on the slow one
    const even = Array.from({ length: 400 }, (_, i) => limit.admit('even', 80, i * 12.5));
    const slow = Array.from({ length: 20 }, (_, i) => limit.admit('slow', 80, i * 50));
    // Assess
    expect(even.every(Boolean)).toBe(true);
    expect(slow.filter(Boolean)).toHaveLength(10);
    expect(limit.refused.get('even')).toBeUndefined();
  });

  it('counts a stamp a little earlier than the latest one in its own second', () => {
    const limit = new ThroughputLimit(0);
    limit.overrides.set('p', { perSecond: 2, burst: 0 });
    expect(limit.admit('p', 2, 1_000)).toBe(true);
    expect(limit.admit('p', 2, 1_010)).toBe(true);
    expect(limit.admit('p', 2, 1_005)).toBe(false);
  });
});
