/**
 * Meta's per-number throughput limit (upstream-facts §6.3): a number's messages beyond its level in a rolling
 * second are refused with 130429 until the rate is back within it. The level's rate (STANDARD 80, HIGH 1,000,
 * 20 for a number also on the WhatsApp Business app) plus a small burst allowance, the share of the rate a
 * second may hold above it (EMULATOR_BURST_SHARE, a tenth by default). A test may set a number's limit lower.
 */
const WINDOW_MS = 1000;

export class ThroughputLimit {
  /** Each number's admitted times, in order, the last two seconds' worth. */
  private readonly admitted = new Map<string, number[]>();
  /** Refusals per number since the start: what the rates test reports. */
  readonly refused = new Map<string, number>();
  /** A number's limit set by a test (`POST /_emulator/numbers/{id}/limit`), instead of its level's. */
  readonly overrides = new Map<string, { perSecond: number; burst: number }>();

  constructor(private readonly burstShare = 0.1) {}

  /** The most messages a rolling second of this number may hold. */
  limitOf(numberId: string, ratePerSecond: number) {
    const override = this.overrides.get(numberId);
    if (override) return override.perSecond + override.burst;
    return Math.floor(ratePerSecond * (1 + this.burstShare));
  }

  /**
   * Admits a message at `at` (epoch ms) unless some second holding it would then hold more than the limit. Stamps
   * arrive nearly in order, but a request stamped before a stall of this process may arrive after later ones:
   * every window around it is looked at, not only the second before it.
   */
  admit(numberId: string, ratePerSecond: number, at: number): boolean {
    const times = this.admitted.get(numberId) ?? [];
    this.admitted.set(numberId, times);
    let insertAt = times.length;
    while (insertAt > 0 && times[insertAt - 1] > at) insertAt--;
    const limit = this.limitOf(numberId, ratePerSecond);
    // The admitted times within a second either side, with this one among them.
    let from = insertAt;
    while (from > 0 && times[from - 1] > at - WINDOW_MS) from--;
    let to = insertAt;
    while (to < times.length && times[to] < at + WINDOW_MS) to++;
    const near = [...times.slice(from, insertAt), at, ...times.slice(insertAt, to)];
    // Each window that holds it starts at one of these times, at or before it.
    for (let start = 0, end = 0; start < near.length && near[start] <= at; start++) {
      while (end < near.length && near[end] < near[start] + WINDOW_MS) end++;
      if (end - start > limit) {
        this.refused.set(numberId, (this.refused.get(numberId) ?? 0) + 1);
        return false;
      }
    }
    times.splice(insertAt, 0, at);
    // Forget what no window can reach any more.
    const horizon = times[times.length - 1] - 4 * WINDOW_MS;
    let old = 0;
    while (old < times.length && times[old] < horizon) old++;
    if (old > 0) times.splice(0, old);
    return true;
  }
}
