import { type Day, dayIn, daysBefore } from '../shared/calendar.ts';
import type { Log } from '../shared/log.ts';
import { DEFAULT_WABA_ZONE } from '../shared/meta-timezones.ts';
import { inParallel } from '../shared/parallel.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import type { AnalyticsReaderState, TemplateAnalyticsStore, TemplateAnalyticsUpstream } from './template-analytics.ts';

/**
 * The daily read of Meta's template analytics (issue 56 item 2, decisions §33; docs/template-analytics.md): each
 * WABA's yesterday, in the WABA's timezone, kept per template and day beside the service's own counts.
 */

/** Meta keeps reads and clicks 7 days from the day a message was sent; then they read as zero (§1.4). */
export const READS_KEPT_DAYS = 7;
/**
 * Each run reads yesterday, and again the last day whose reads and clicks Meta still keeps (6 days back): a
 * message's reads and clicks keep coming for days after the first read, and the second read corrects the first.
 */
export const SETTLED_DAY_BACK = READS_KEPT_DAYS - 1;

export interface TemplateAnalyticsDeps {
  directory: Pick<DirectoryStore, 'listChannels'>;
  store: TemplateAnalyticsStore;
  upstream: TemplateAnalyticsUpstream;
  /** A WABA's timezone (its days, decisions §31) and billing currency (its COST's): UTC when unknown. */
  billingOf: (wabaId: string) => Promise<{ zone: string; currency?: string }>;
  log: Log;
  /** When a day's figures were read, as kept with them. */
  now?: () => string;
}

/** One WABA's part of a run: the days read, those that failed, and the items written. */
interface WabaRun {
  wabaId: string;
  read: Day[];
  failed: Day[];
  written: number;
}

/**
 * One run at `runAt`: for each WABA of the directory, yesterday and the settled day in the WABA's timezone, and
 * the days earlier runs failed to read while Meta still keeps their reads and clicks. A WABA whose template
 * analytics is not confirmed is confirmed first (Meta's one-time step). A day's figures are read whole before
 * any is kept; a day whose read or keeping fails is the WABA's failed day, read again on the next runs.
 */
export async function readTemplateAnalytics(deps: TemplateAnalyticsDeps, runAt: string) {
  const channels = await deps.directory.listChannels();
  const wabas = [...new Set(channels.filter((c) => !c.deleted).map((c) => c.waba_id))].sort();
  const runs = await inParallel(wabas, 4, (wabaId) => readWaba(deps, wabaId, runAt));
  const summary = {
    wabas: wabas.length,
    read: runs.reduce((n, r) => n + r.read.length, 0),
    failed: runs.reduce((n, r) => n + r.failed.length, 0),
    written: runs.reduce((n, r) => n + r.written, 0),
  };
  deps.log.info('template analytics read', summary);
  return { ...summary, runs };
}

/** The days a run reads of a WABA whose day is `today`: yesterday, the settled day, and failed days still kept. */
export function daysToRead(today: Day, failed: Day[]): Day[] {
  const oldest = daysBefore(today, READS_KEPT_DAYS - 1);
  const wanted = [daysBefore(today, 1), daysBefore(today, SETTLED_DAY_BACK), ...failed.filter((day) => day >= oldest && day < today)];
  return [...new Set(wanted)].sort();
}

async function readWaba(deps: TemplateAnalyticsDeps, wabaId: string, runAt: string): Promise<WabaRun> {
  const run: WabaRun = { wabaId, read: [], failed: [], written: 0 };
  const state = await deps.store.readerState(wabaId).catch((error: unknown) => {
    deps.log.warn('template analytics not read: the WABA’s state is unknown', { waba_id: wabaId, error: String(error) });
    return null;
  });
  if (!state) return run;
  const billing = await deps.billingOf(wabaId).catch(() => ({ zone: DEFAULT_WABA_ZONE, currency: undefined }));
  const today = dayIn(runAt, billing.zone);
  const days = daysToRead(today, state.failed_days);
  const given = state.failed_days.filter((day) => !days.includes(day) && day < today);
  if (given.length > 0) deps.log.warn('template analytics never read: days given up', { waba_id: wabaId, days: given });
  const enabled = state.enabled || (await enable(deps, wabaId));
  for (const day of days) {
    try {
      if (!enabled) throw new Error('template analytics not confirmed');
      const figures = await deps.upstream.templateAnalytics(wabaId, day);
      const readAt = deps.now?.() ?? new Date().toISOString();
      const kept = figures.map((f) => ({
        ...f,
        waba_id: wabaId,
        read_at: readAt,
        ...(billing.currency && { currency: billing.currency }),
      }));
      run.written += await deps.store.putDay(wabaId, day, kept);
      run.read.push(day);
    } catch (error) {
      deps.log.warn('template analytics not read', { waba_id: wabaId, day, error: String(error) });
      run.failed.push(day);
    }
  }
  await keepState(deps, wabaId, state, { enabled, failed_days: run.failed });
  return run;
}

/** Meta's one-time confirmation of the WABA's template analytics: whether it is on now. */
async function enable(deps: TemplateAnalyticsDeps, wabaId: string) {
  try {
    await deps.upstream.enableTemplateAnalytics(wabaId);
    return true;
  } catch (error) {
    deps.log.warn('template analytics not confirmed', { waba_id: wabaId, error: String(error) });
    return false;
  }
}

/** The WABA's state after the run, written only when it changed. */
async function keepState(deps: TemplateAnalyticsDeps, wabaId: string, before: AnalyticsReaderState, after: AnalyticsReaderState) {
  if (before.enabled === after.enabled && before.failed_days.join() === after.failed_days.join()) return;
  try {
    await deps.store.setReaderState(wabaId, after);
  } catch (error) {
    deps.log.warn('template analytics: the WABA’s state not kept', { waba_id: wabaId, ...after, error: String(error) });
  }
}
