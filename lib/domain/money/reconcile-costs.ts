import type { ChannelRecord } from '../shared/directory.ts';
import type { Log } from '../shared/log.ts';
import { addCost } from './meta-costs.ts';
import { type NumberOwner, sharesOfDay } from './meta-shares.ts';
import type { CostGap, CostLedger, LedgerEntry, MetaShare, ReconciliationStore } from './ports.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import type { BillingCurrencies, PricingUpstream } from './ports.ts';
import { inParallel } from '../shared/parallel.ts';
import { DAY_MS, dayOf, daysBefore, dayStartIn, dayStartMs } from '../shared/calendar.ts';
import { billingOfWaba } from './billing-currencies.ts';
import { DEFAULT_WABA_ZONE } from '../shared/meta-timezones.ts';
import { fromMicros } from '../shared/money.ts';
import { BASE_CURRENCY } from './pricing/rate-card.ts';

export type { CostGap } from './ports.ts';

/** A client's day in a market whose figures differ by more than this share is a gap to look at (decisions §24). */
export const GAP_SHARE = 0.01;
/** Each run reads yesterday and the days before it again, because statuses come in late (decisions §26). */
export const DAYS_READ_AGAIN = 3;
/** A day whose read failed is read again on each run until it succeeds or is older than this. */
export const FAILED_DAY_KEPT_DAYS = 30;

export interface ReconcileDeps {
  ledger: CostLedger;
  reconciliation: ReconciliationStore;
  directory: Pick<DirectoryStore, 'listChannels'>;
  upstream: PricingUpstream;
  /** Each WABA's zone (decisions §31): Meta's day is the WABA's; absent, or unread, a day is UTC's. */
  currencies?: BillingCurrencies;
  log: Log;
  /** Told each gap found (the worker counts them as a metric, which the stack alarms on). */
  onGap?: (gap: CostGap) => void;
  now?: () => string;
}

/** A WABA's day as `pricing_analytics` asks it (decisions §31): from its start in the WABA's zone to the next day's. */
function windowOf(day: string, zone: string) {
  const next = dayOf(dayStartMs(day) + DAY_MS);
  return { start: dayStartIn(day, zone) / 1000, end: dayStartIn(next, zone) / 1000 };
}

/** The zone of a WABA's days: UTC where it cannot be read (its figures are then read by UTC days, as before). */
async function zoneOf(deps: ReconcileDeps, wabaId: string) {
  if (!deps.currencies) return DEFAULT_WABA_ZONE;
  const billing = await billingOfWaba(deps.currencies, wabaId).catch(() => undefined);
  return billing?.zone ?? DEFAULT_WABA_ZONE;
}

/** The day before `now`: the last whole day Meta's figures cover. */
export const yesterdayOf = (now: string) => daysBefore(now, 1);

/**
 * The daily reconciliation (decisions §24, §26), run at `runAt`: each WABA's `pricing_analytics` of the last
 * DAYS_READ_AGAIN days, and of every day an earlier run failed to read, is kept beside the ledger (usage shows it
 * as `meta_amount`); then each WABA's day is shared by who sent (decisions §32), each client's parts are kept and
 * compared with its ledger market by market, and the gaps above GAP_SHARE are kept (`GET /v1/usage/gaps`). A
 * failure is its WABA-day's alone (issue 51): a day Meta does not answer for, or whose figures, parts or gaps could
 * not be kept, is logged and read on the next run; the others go on.
 */
export async function reconcileCosts(deps: ReconcileDeps, runAt: string) {
  const channels = await deps.directory.listChannels();
  const wabas = [...new Set(channels.filter((c) => !c.deleted).map((c) => c.waba_id))];
  const readAt = deps.now?.() ?? new Date().toISOString();
  const runs = await inParallel(wabas, 4, (wabaId) => readWaba(deps, wabaId, runAt, readAt));
  /** The WABAs read, by day; the days still unread, by WABA. */
  const read = new Map<string, Set<string>>();
  const unread = new Map(runs.map((run) => [run.wabaId, new Set(run.failed)]));
  for (const run of runs) for (const day of run.read) read.set(day, (read.get(day) ?? new Set()).add(run.wabaId));
  const gaps: CostGap[] = [];
  for (const [day, wabasRead] of [...read].sort(([a], [b]) => a.localeCompare(b)))
    gaps.push(...(await gapsOfDay(deps, clientsOf(channels, new Set(wabas)), ownersOf(channels), day, wabasRead, unread)));
  await inParallel(runs, 4, (run) => keepFailedDays(deps, run, unread.get(run.wabaId)!));
  for (const gap of gaps) {
    deps.onGap?.(gap);
    deps.log.warn('cost gap: Meta’s figures and the ledger differ', { ...gap });
  }
  const failed = [...unread.values()].reduce((sum, days) => sum + days.size, 0);
  const days = [...read.keys()].sort();
  deps.log.info('costs reconciled', { wabas: wabas.length, days, read: [...read.values()].reduce((n, s) => n + s.size, 0), failed });
  return { wabas: wabas.length, days, failed, gaps };
}

/** One WABA's part of a run: the days read and kept, those that failed, and the failed days it had (null: unknown). */
interface WabaRun {
  wabaId: string;
  earlier: string[] | null;
  read: string[];
  failed: string[];
}

/**
 * A WABA's days read and kept, each on its own: a day whose read or keeping fails is the WABA's failed day, never
 * the run's. A WABA whose failed days cannot be read is left for the next run (its days are read three runs over).
 */
async function readWaba(deps: ReconcileDeps, wabaId: string, runAt: string, readAt: string): Promise<WabaRun> {
  const recent = Array.from({ length: DAYS_READ_AGAIN }, (_, i) => daysBefore(runAt, DAYS_READ_AGAIN - i));
  const earlier = await deps.reconciliation.failedDays(wabaId).catch((error: unknown) => {
    deps.log.warn('pricing analytics not read: failed days unknown', { waba_id: wabaId, error: String(error) });
    return null;
  });
  if (earlier === null) return { wabaId, earlier, read: [], failed: recent };
  const oldest = daysBefore(runAt, FAILED_DAY_KEPT_DAYS);
  const given = earlier.filter((day) => day < oldest);
  if (given.length > 0) deps.log.warn('pricing analytics never read: days given up', { waba_id: wabaId, days: given });
  const run: WabaRun = { wabaId, earlier, read: [], failed: [] };
  const zone = await zoneOf(deps, wabaId);
  for (const day of [...new Set([...earlier.filter((day) => day >= oldest), ...recent])].sort()) {
    try {
      const { start, end } = windowOf(day, zone);
      // Every point of the read is of its day: Meta's points start at the WABA's midnight, not UTC's.
      const meta = (await deps.upstream.pricingAnalytics(wabaId, start, end)).map((point) => ({ ...point, day }));
      await deps.ledger.putMetaCosts(wabaId, day, meta, readAt);
      run.read.push(day);
    } catch (error) {
      deps.log.warn('pricing analytics not read', { waba_id: wabaId, day, error: String(error) });
      run.failed.push(day);
    }
  }
  return run;
}

/** The WABA's days still unread after the run, kept for the next one (unless its earlier list was not known). */
async function keepFailedDays(deps: ReconcileDeps, run: WabaRun, unread: Set<string>) {
  const failed = [...unread].sort();
  if (run.earlier === null || failed.join() === run.earlier.join()) return;
  try {
    await deps.reconciliation.setFailedDays(run.wabaId, failed);
  } catch (error) {
    deps.log.warn('pricing analytics: failed days not kept', { waba_id: run.wabaId, days: failed, error: String(error) });
  }
}

/** Each client's WABAs among those the run reads. */
function clientsOf(channels: ChannelRecord[], wabas: Set<string>) {
  const clients = new Map<number, ChannelRecord[]>();
  for (const channel of channels) clients.set(channel.client_id, [...(clients.get(channel.client_id) ?? []), channel]);
  return [...clients].map(([clientId, own]) => ({
    clientId,
    wabas: [...new Set(own.map((c) => c.waba_id))].filter((w) => wabas.has(w)),
  }));
}

/** Whose each number is today (a live channel before a deleted one): Meta's figures no client sent under go there. */
function ownersOf(channels: ChannelRecord[]): NumberOwner {
  const owners = new Map<string, number>();
  for (const channel of [...channels].sort((a, b) => Number(!a.deleted) - Number(!b.deleted)))
    owners.set(channel.wa_id.replace(/\D/g, ''), channel.client_id);
  return (digits) => owners.get(digits);
}

/**
 * The gaps of a day, client by client: those with a number on a WABA read this run, whose WABAs were all read
 * (a client's day with a WABA unread is compared once it is). Each WABA's day is shared by who sent (decisions
 * §32, sharesOfDay); each client's parts and gaps of the day replace the earlier. A client's day that cannot be
 * compared leaves the day unread on its WABAs, so the next run compares it.
 */
async function gapsOfDay(
  deps: ReconcileDeps,
  clients: ReturnType<typeof clientsOf>,
  owners: NumberOwner,
  day: string,
  wabasRead: Set<string>,
  unread: Map<string, Set<string>>,
) {
  // A WABA's day is read and shared once, however many clients share it.
  const sharesOf = new Map<string, Promise<{ ledger: { client_id: number; entry: LedgerEntry }[]; shares: Map<number, MetaShare[]> }>>();
  // Who may have sent on the WABA: every client with a number there, now or before (channels deleted included).
  const sendersOn = (waba: string) => clients.filter((c) => c.wabas.includes(waba)).map((c) => c.clientId);
  const wabaDay = (waba: string) => {
    if (!sharesOf.has(waba))
      sharesOf.set(
        waba,
        Promise.all([deps.ledger.wabaDay(waba, sendersOn(waba), day), deps.ledger.metaCosts([waba], day, day)]).then(([ledger, meta]) => ({
          ledger,
          shares: sharesOfDay(meta, ledger, owners),
        })),
      );
    return sharesOf.get(waba)!;
  };
  const found = await inParallel(
    clients.filter((c) => c.wabas.some((w) => wabasRead.has(w)) && !c.wabas.some((w) => unread.get(w)?.has(day))),
    4,
    async ({ clientId, wabas }) => {
      try {
        const read = await Promise.all(wabas.map(wabaDay));
        const own = read.map(({ shares }) => shares.get(clientId) ?? []);
        const ledger = read.flatMap(({ ledger }) => ledger.filter((c) => c.client_id === clientId).map((c) => c.entry));
        const gaps = compareByMarket(clientId, day, ledger, own.flat());
        await Promise.all(wabas.map((waba, i) => deps.ledger.putMetaShares(clientId, waba, day, own[i])));
        await deps.reconciliation.putGaps(clientId, day, gaps);
        return gaps;
      } catch (error) {
        // The client's day is compared again on the next run, which reads its WABAs' day again.
        deps.log.warn('cost gaps not compared', { client_id: clientId, day, error: String(error) });
        for (const waba of wabas) unread.get(waba)?.add(day);
        return [];
      }
    },
  );
  return found.flat();
}

/**
 * A client's day, market by market in each currency: the ledger against Meta's COST, where Meta gave one. A client
 * whose WABAs bill in two currencies is compared in each apart (decisions §31): a USD gap and an opposite EUR one
 * never cancel out. Meta's figure is in its `currency` (USD where it names none); a market priced in USD for a
 * WABA billed in a currency without a card (`currency_mismatch`) is not comparable and left out.
 */
function compareByMarket(clientId: number, day: string, ledger: LedgerEntry[], meta: MetaShare[]): CostGap[] {
  // A part without COST leaves Meta's figure unknown: of its market, and of any market Meta names no part in.
  const none = meta.some((m) => m.micros === undefined) ? null : 0;
  const groups = new Map<string, { market: string; currency: string; ledger: number; meta?: number | null }>();
  const groupOf = (market: string, currency: string) => {
    const key = `${market}|${currency}`;
    return groups.get(key) ?? groups.set(key, { market, currency, ledger: 0 }).get(key)!;
  };
  const mismatched = new Set(ledger.filter((entry) => entry.currency_mismatch).map((entry) => entry.market));
  for (const entry of ledger) groupOf(entry.market, entry.currency).ledger += entry.micros;
  for (const part of meta) {
    const figures = groupOf(part.market, part.currency ?? BASE_CURRENCY);
    figures.meta = addCost(figures.meta, part);
  }
  return [...groups.values()].flatMap(({ market, currency, ledger: ledgerMicros, meta: metaMicros = none }) => {
    if (metaMicros === null || mismatched.has(market)) return [];
    const larger = Math.max(metaMicros, ledgerMicros);
    const share = larger === 0 ? 0 : Math.abs(metaMicros - ledgerMicros) / larger;
    if (share <= GAP_SHARE) return [];
    return [{ client_id: clientId, day, market, currency, ledger: fromMicros(ledgerMicros), meta: fromMicros(metaMicros), share }];
  });
}
