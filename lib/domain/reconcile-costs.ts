import type { Log } from './log.ts';
import type { CostLedger } from './ports/costs.ts';
import type { DirectoryStore } from './ports/directory.ts';
import type { PricingUpstream } from './ports/upstream.ts';
import { inParallel } from './parallel.ts';
import { fromMicros } from './pricing/rate-card.ts';

/** A day's gap above this share of its amount is a gap to look at (decisions §24). */
export const GAP_SHARE = 0.01;

export interface CostGap {
  waba_id: string;
  day: string;
  ledger: number;
  meta: number;
  /** |meta − ledger| as a share of the larger. */
  share: number;
}

export interface ReconcileDeps {
  ledger: CostLedger;
  directory: Pick<DirectoryStore, 'listChannels'>;
  upstream: PricingUpstream;
  log: Log;
  /** Told each gap found (the worker counts them as a metric, which the stack alarms on). */
  onGap?: (gap: CostGap) => void;
  now?: () => string;
}

const unixOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/**
 * The daily reconciliation (decisions §24): each WABA's `pricing_analytics` of a day is read and kept beside the
 * ledger (usage shows it as `meta_amount`), and a day whose figures differ by more than GAP_SHARE is a gap. A
 * WABA Meta does not answer for is logged and left for the next run; the others go on.
 */
export async function reconcileCosts(deps: ReconcileDeps, days: string[]) {
  const wabas = [...new Set((await deps.directory.listChannels()).filter((c) => !c.deleted).map((c) => c.waba_id))];
  const readAt = deps.now?.() ?? new Date().toISOString();
  const gaps: CostGap[] = [];
  let read = 0;
  await inParallel(wabas, 4, async (wabaId) => {
    for (const day of days) {
      let meta: Awaited<ReturnType<PricingUpstream['pricingAnalytics']>>;
      try {
        meta = await deps.upstream.pricingAnalytics(wabaId, unixOf(day), unixOf(day) + 86_400);
      } catch (error) {
        deps.log.warn('pricing analytics not read', { waba_id: wabaId, day, error: String(error) });
        continue;
      }
      await deps.ledger.putMetaCosts(wabaId, day, meta, readAt);
      read++;
      const metaMicros = meta.reduce((sum, e) => sum + e.micros, 0);
      const ledgerMicros = (await deps.ledger.wabaDay(wabaId, day)).reduce((sum, e) => sum + e.entry.micros, 0);
      const larger = Math.max(metaMicros, ledgerMicros);
      const share = larger === 0 ? 0 : Math.abs(metaMicros - ledgerMicros) / larger;
      if (share > GAP_SHARE) {
        const gap = { waba_id: wabaId, day, ledger: fromMicros(ledgerMicros), meta: fromMicros(metaMicros), share };
        gaps.push(gap);
        deps.onGap?.(gap);
        deps.log.warn('cost gap: Meta’s figures and the ledger differ', gap);
      }
    }
  });
  deps.log.info('costs reconciled', { wabas: wabas.length, days, read, gaps: gaps.length });
  return { wabas: wabas.length, read, gaps };
}

/** The day before `now` (UTC): the last whole day Meta's figures cover. */
export const yesterdayOf = (now: string) => new Date(Date.parse(now) - 86_400_000).toISOString().slice(0, 10);
