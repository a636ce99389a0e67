import type { Caller } from './caller.ts';
import { InvalidRequest } from './errors.ts';
import { addCost, clientsPoints, marketOfPoint, numbersOf } from './meta-costs.ts';
import { BASE_CURRENCY, fromMicros } from './pricing/rate-card.ts';
import type { CostLedger } from './ports/costs.ts';
import type { DirectoryStore } from './ports/directory.ts';
import { namedClient } from './tenancy.ts';

export const USAGE_GROUPS = ['day', 'month', 'market', 'category', 'did'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** The longest period one usage request covers (decisions §24). */
const MAX_DAYS = 366;

export interface UsageQuery {
  client_id?: number;
  from: string;
  to: string;
  group_by?: UsageGroup;
}

interface UsageRow {
  period?: string;
  market?: string;
  category?: string;
  did?: string;
  messages: number;
  billable: number;
  amount: number;
  currency: string;
  currency_mismatch?: true;
  meta_amount?: number;
}

/** A day's start, or NaN when it is not a day of the calendar (2026-02-30 is not). */
const dayMs = (day: string) => {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === day ? ms : Number.NaN;
};

/** A period of usage (decisions §24): two days of the calendar, in order, at most MAX_DAYS apart; else 400. */
export function checkPeriod(fromDay: string, toDay: string) {
  const from = dayMs(fromDay);
  const to = dayMs(toDay);
  if (Number.isNaN(from) || Number.isNaN(to)) throw new InvalidRequest('from and to must be dates (YYYY-MM-DD)');
  if (to < from) throw new InvalidRequest('to must not be before from');
  if ((to - from) / 86_400_000 + 1 > MAX_DAYS) throw new InvalidRequest(`from–to covers at most ${MAX_DAYS} days`);
}

/**
 * GET /v1/usage (decisions §24): what a client's delivered messages cost on days `from`–`to`, grouped by day,
 * month, market, category or number, from the ledger the status path keeps; beside each day, month, market or
 * category, Meta's own figure for the client's own numbers (`meta_amount`, once the reconciliation read it; absent
 * where Meta gave no COST, decisions §26). An agent sees its own client; BSP_CN names the client.
 */
export async function usage(deps: { ledger: CostLedger; directory: DirectoryStore }, caller: Caller, query: UsageQuery) {
  const clientId = namedClient(caller, query.client_id);
  checkPeriod(query.from, query.to);
  const group = query.group_by ?? 'day';
  const wabas = await deps.directory.listClientWabas(clientId);
  const [entries, meta, channels] = await Promise.all([
    deps.ledger.charges(wabas, clientId, query.from, query.to),
    group === 'did' ? Promise.resolve([]) : deps.ledger.metaCosts(wabas, query.from, query.to),
    group === 'did' ? Promise.resolve([]) : deps.directory.listChannels(clientId),
  ]);
  const keyOf = (e: { day: string; market: string; category: string; did?: string }) =>
    group === 'day'
      ? e.day
      : group === 'month'
        ? e.day.slice(0, 7)
        : group === 'market'
          ? e.market
          : group === 'category'
            ? e.category
            : (e.did ?? '');
  // A row is a group in one currency (decisions §26): amounts of two currencies are two rows, never one sum.
  const rows = new Map<string, UsageRow & { micros: number; metaMicros?: number | null }>();
  const rowOf = (key: string, currency: string, mismatch?: true) => {
    const id = `${key}|${currency}${mismatch ? '!' : ''}`;
    const known = rows.get(id) ?? {
      ...labelOf(group, key),
      messages: 0,
      billable: 0,
      amount: 0,
      currency,
      ...(mismatch && { currency_mismatch: mismatch }),
      micros: 0,
    };
    rows.set(id, known);
    return known;
  };
  for (const e of entries) {
    const row = rowOf(keyOf(e), e.currency, e.currency_mismatch);
    row.messages += e.messages;
    row.billable += e.billable;
    row.micros += e.micros;
  }
  for (const m of clientsPoints(meta, numbersOf(channels))) {
    const row = rowOf(keyOf({ day: m.day, market: marketOfPoint(m), category: m.category }), m.currency ?? BASE_CURRENCY);
    row.metaMicros = addCost(row.metaMicros, m);
  }
  const data = [...rows.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, { micros, metaMicros, ...row }]) => ({
      ...row,
      amount: fromMicros(micros),
      ...(typeof metaMicros === 'number' && { meta_amount: fromMicros(metaMicros) }),
    }));
  const currencies = new Set(data.map((row) => row.currency));
  const currency = currencies.size === 0 ? BASE_CURRENCY : currencies.size === 1 ? [...currencies][0] : undefined;
  return { data, ...(currency && { currency }), client_id: clientId, from: query.from, to: query.to, group_by: group };
}

const labelOf = (group: UsageGroup, key: string) =>
  group === 'day' || group === 'month'
    ? { period: key }
    : group === 'market'
      ? { market: key }
      : group === 'category'
        ? { category: key }
        : { did: key };
