import type { Log } from '../../shared/log.ts';
import type { KnownThroughput, ThroughputStore } from './ports.ts';
import type { ThroughputLevel } from '../../shared/ports.ts';
import type { MessageUpstream } from './ports.ts';
import { LEVEL_REFRESH_MS, PACE_SHARE } from './tuning.ts';

/**
 * Throughput per sending number (decisions §19, upstream-facts §6.3). Meta paces each business number at its
 * level: `STANDARD` 80 messages a second, `HIGH` 1,000 after its upgrade, and 20 for a number also in use with
 * the WhatsApp Business app (`COEXISTENCE`, read from the number's `is_on_biz_app`).
 */
export const MESSAGES_PER_SECOND: Record<ThroughputLevel, number> = { STANDARD: 80, HIGH: 1000, COEXISTENCE: 20 };

/** The rate of a number at its level, capped by MESSAGES_PER_SECOND when that is set. */
const messagesPerSecondOf = (level: ThroughputLevel, cap?: number) => Math.min(MESSAGES_PER_SECOND[level], cap ?? Number.POSITIVE_INFINITY);

/**
 * The pace the dispatcher keeps for a number: its rate, less the headroom for jitter (PACE_SHARE, tuning.ts). Meta
 * counts messages as it accepts them, not as they leave: a send's slot and its accept time differ by the network's
 * and the upstream's varying delay, and a launch may be up to LATE_MS after its slot (sending/slots.ts). Pacing a
 * tenth under the rate keeps every second within 1.1× the rate (decisions §19) with both, and costs a tenth of the
 * throughput.
 */
export const paceOf = (level: ThroughputLevel, cap?: number) => messagesPerSecondOf(level, cap) * PACE_SHARE;

export interface ThroughputDeps {
  levels: ThroughputStore;
  upstream: Pick<MessageUpstream, 'throughputOf'>;
  log: Log;
}

/**
 * The number's level: as stored while it is fresh (LEVEL_REFRESH_MS: decisions §19, at least hourly), else asked of the upstream and stored. An upstream that does
 * not answer leaves the stored level (or the standard one) in force: a pace too slow is safe, one too fast is not.
 */
export async function throughputLevel(deps: ThroughputDeps, number: { digits: string; phoneNumberId: string }, nowMs: number) {
  const known = await deps.levels.get(number.digits);
  if (known && nowMs - known.checkedAtMs < LEVEL_REFRESH_MS) return known.level;
  try {
    const fresh: KnownThroughput = { level: await deps.upstream.throughputOf(number.phoneNumberId), checkedAtMs: nowMs };
    await deps.levels.put(number.digits, fresh);
    if (fresh.level !== known?.level) deps.log.info('throughput level learned', { level: fresh.level, was: known?.level ?? 'unknown' });
    return fresh.level;
  } catch (error) {
    deps.log.warn('throughput level unknown: paced as before', { error: (error as Error).name });
    return known?.level ?? 'STANDARD';
  }
}
