import type { Caller } from '../shared/caller.ts';
import { InvalidRequest } from '../shared/errors.ts';
import { clientsPoints, marketOfPoint, numbersOf } from './meta-costs.ts';
import { BASE_CURRENCY } from './pricing/rate-card.ts';
import { moneyShown } from './pricing/visibility.ts';
import type { ChargedSend, ChargedSends, CostLedger, MetaShare } from './ports.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import { dayOf, daysBefore, daysBetween, daysOfMonth, dayStartMs, isDay, monthOf } from '../shared/calendar.ts';
import { namedClient } from '../shared/tenancy.ts';
import { bySends, parseGroups, shownRow, UsageTallies, type UsageGroup } from './usage-groups.ts';

export { USAGE_GROUPS, type UsageGroup } from './usage-groups.ts';

/** The longest period one usage request covers (decisions §24). */
const MAX_DAYS = 366;
/** The most sends one usage request by send or template reads (newest first, down to the period's start). */
export const MAX_SENDS = 2_000;
/**
 * The most rows a page of usage holds (decisions §32: a usage range pages): a month by day and market, the console's
 * chart and CSV, on one page; about 1.5 MB of JSON at most.
 */
export const MAX_ROWS = 5_000;

export interface UsageQuery {
  client_id?: number;
  from: string;
  to: string;
  /** A comma list of USAGE_GROUPS (decisions §27); `day` when absent. */
  group_by?: string;
  /** Where a page starts: the `paging.cursors.after` of the page before (decisions §32). */
  cursor?: string;
  /** Rows a page holds at most: MAX_ROWS when absent. */
  limit?: number;
}

/** Whether a client has a price list (P's store); absent: none has. */
export interface PriceListVersions {
  lists(clientId: number): Promise<{ effective_from: string; currency: string; exchange_rates?: Record<string, number> }[]>;
}

export interface UsageDeps {
  ledger: CostLedger;
  directory: DirectoryStore;
  /** The client's sends (rows by `template` or `send`): newest first. */
  sends: ChargedSends;
  /** Whether the client has a price list: its price and margin are shown then (moneyShown). */
  priceLists: PriceListVersions;
}

/** A period of usage (decisions §24): two days of the calendar, in order, at most MAX_DAYS apart; else 400. */
export function checkPeriod(fromDay: string, toDay: string) {
  if (!isDay(fromDay) || !isDay(toDay)) throw new InvalidRequest('from and to must be dates (YYYY-MM-DD)');
  const days = daysBetween(fromDay, toDay) + 1;
  if (days < 1) throw new InvalidRequest('to must not be before from');
  if (days > MAX_DAYS) throw new InvalidRequest(`from–to covers at most ${MAX_DAYS} days`);
}

/**
 * GET /v1/usage (decisions §24, §27): what a client's delivered messages cost on days `from`–`to`, grouped by any of
 * day or month, market, category and number from the ledger the status path keeps; or by template and send (with
 * category) from the sends accepted in the period, each with all its charges so far. Beside rows without a number,
 * template or send, the client's part of Meta's own figures (`meta_amount`, decisions §26, §32: shared by who sent).
 * Each row names its client, currency and period; `price` and `margin` as moneyShown says. An agent sees its own
 * client; BSP_CN names the client. The rows come in pages of at most MAX_ROWS, with cursors (decisions §32).
 */
export async function usage(deps: UsageDeps, caller: Caller, query: UsageQuery) {
  const clientId = namedClient(caller, query.client_id);
  checkPeriod(query.from, query.to);
  const groups = parseGroups(query.group_by);
  const hasList = (await deps.priceLists.lists(clientId)).length > 0;
  const shown = moneyShown(caller, hasList);
  const tallies = new UsageTallies(groups);
  if (bySends(groups)) await tallySends(deps, clientId, query, groups, tallies);
  else await tallyLedger(deps, clientId, query, groups, tallies, shown.cost);
  const page = pageOf(query);
  const rows = tallies.sorted();
  const data = rows.map((row) => ({
    client_id: clientId,
    ...rowPeriod(row.groups, query),
    ...withoutPeriod(row.groups),
    ...shownRow(row, shown),
  }));
  const currencies = new Set(data.map((row) => row.currency));
  const currency = currencies.size === 0 ? BASE_CURRENCY : currencies.size === 1 ? [...currencies][0] : undefined;
  return {
    data: data.slice(page.start, page.end),
    ...(currency && { currency }),
    client_id: clientId,
    from: query.from,
    to: query.to,
    group_by: groups.join(','),
    paging: pagingOf(page, rows.length),
  };
}

/** The rows a page holds: from its cursor's, at most `limit` (MAX_ROWS); a cursor not one of ours is a 400. */
function pageOf(query: UsageQuery) {
  const limit = query.limit ?? MAX_ROWS;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ROWS) throw new InvalidRequest(`limit must be from 1 to ${MAX_ROWS}`);
  const start = query.cursor === undefined ? 0 : rowOfCursor(query.cursor);
  return { start, end: start + limit, limit };
}

/** The cursors around a page (as the catalogs' products page, spec §4): none where there is no page that way. */
function pagingOf(page: { start: number; end: number; limit: number }, rows: number) {
  const before = page.start > 0 ? cursorOfRow(Math.max(0, page.start - page.limit)) : undefined;
  const after = page.end < rows ? cursorOfRow(page.end) : undefined;
  return { cursors: { ...(before !== undefined && { before }), ...(after !== undefined && { after }) } };
}

/** A cursor is opaque to the caller: the row a page starts at, as base64url of `usage:<row>`. */
const cursorOfRow = (row: number) => btoa(`usage:${row}`).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

function rowOfCursor(cursor: string) {
  const text = (() => {
    try {
      return atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    } catch {
      return '';
    }
  })();
  const row = /^usage:(0|[1-9][0-9]{0,8})$/.exec(text)?.[1];
  if (row === undefined) throw new InvalidRequest('cursor is not one this route gave');
  return Number(row);
}

async function tallyLedger(
  deps: UsageDeps,
  clientId: number,
  query: UsageQuery,
  groups: UsageGroup[],
  tallies: UsageTallies,
  withMeta: boolean,
) {
  // Meta's figures have no number: they stand beside rows of days, months, markets and categories only.
  const meta = withMeta && !groups.includes('did');
  const wabas = await deps.directory.listClientWabas(clientId);
  const [entries, parts] = await Promise.all([
    deps.ledger.charges(wabas, clientId, query.from, query.to),
    meta ? metaParts(deps, clientId, wabas, query) : Promise.resolve([]),
  ]);
  const groupsOf = (e: { day: string; market: string; category: string; did?: string }) =>
    Object.fromEntries(groups.map((group) => [group, groupValue(group, e)])) as Partial<Record<UsageGroup, string>>;
  for (const e of entries) tallies.add(groupsOf(e), e);
  for (const part of parts) tallies.addMeta(groupsOf(part), part, BASE_CURRENCY);
}

/**
 * The client's parts of Meta's figures (decisions §32): those the reconciliation shared by who sent, read by
 * client; a WABA's days before the first it shared (kept before §32) as they were kept: the points of the client's
 * own numbers. A WABA shared from `from` on is not read at all.
 */
async function metaParts(deps: UsageDeps, clientId: number, wabas: string[], query: UsageQuery): Promise<MetaShare[]> {
  const shared = await deps.ledger.metaShares(clientId, query.from, query.to);
  const firstShared = new Map<string, string>();
  for (const { waba_id, day } of shared) {
    const known = firstShared.get(waba_id);
    if (known === undefined || day < known) firstShared.set(waba_id, day);
  }
  const unshared = wabas.flatMap((waba) => {
    const first = firstShared.get(waba);
    return first === query.from ? [] : [{ waba, to: first === undefined ? query.to : daysBefore(dayStartMs(first), 1) }];
  });
  if (unshared.length === 0) return shared.flatMap((s) => s.shares);
  const [points, channels] = await Promise.all([
    Promise.all(unshared.map(({ waba, to }) => deps.ledger.metaCosts([waba], query.from, to))),
    deps.directory.listChannels(clientId),
  ]);
  const before = clientsPoints(points.flat(), numbersOf(channels)).map((p) => ({ ...p, market: marketOfPoint(p) }));
  return [...shared.flatMap((s) => s.shares), ...before];
}

const groupValue = (group: UsageGroup, e: { day: string; market: string; category: string; did?: string }) =>
  group === 'day'
    ? e.day
    : group === 'month'
      ? monthOf(e.day)
      : group === 'market'
        ? e.market
        : group === 'category'
          ? e.category
          : (e.did ?? '');

/** The sends accepted on days `from`–`to`, read newest first down to the period's start (at most MAX_SENDS). */
async function tallySends(deps: UsageDeps, clientId: number, query: UsageQuery, groups: UsageGroup[], tallies: UsageTallies) {
  const size = 100;
  for (let offset = 0; ; offset += size) {
    if (offset >= MAX_SENDS) throw new InvalidRequest(`group_by template or send reads at most ${MAX_SENDS} sends: narrow from–to`);
    const { sends } = await deps.sends.list(clientId, { offset, size });
    for (const send of sends) {
      const day = dayOf(send.created_at);
      if (day < query.from || day > query.to) continue;
      for (const [category, charge] of Object.entries(send.charges ?? {})) {
        const values = { template: send.template.name, send: send.send_id, category };
        const own = Object.fromEntries(groups.map((group) => [group, values[group as keyof typeof values]]));
        tallies.add(own, sendCharge(send, charge));
      }
    }
    const last = sends.at(-1);
    const oldest = last && dayOf(last.created_at);
    if (sends.length < size || oldest === undefined || oldest < query.from) return;
  }
}

/**
 * A send's charge of a category as a usage row adds it, each figure in its own currency (decisions §31): the price
 * in its list's currency. A price the send cannot name the currency of (a send accepted before its list started,
 * priced on delivery) is left out of the send's rows; the ledger's rows (group_by day, market…) carry it.
 */
function sendCharge(send: ChargedSend, charge: NonNullable<ChargedSend['charges']>[string]) {
  const { price_micros, ...cost } = charge;
  const currency = send.currency ?? BASE_CURRENCY;
  if (price_micros === undefined || !send.price_list) return { ...cost, currency };
  return { ...cost, currency, price_micros, price_currency: send.price_list.currency };
}

/** A row's groups but its day or month, which it names as its `period`. */
const withoutPeriod = ({ day: _day, month: _month, ...groups }: Partial<Record<UsageGroup, string>>) => groups;

/** A row's period: its day, its month within from–to, or from–to. */
function rowPeriod(groups: Partial<Record<UsageGroup, string>>, query: UsageQuery) {
  if (groups.day) return { from: groups.day, to: groups.day, period: groups.day };
  if (groups.month) {
    const month = daysOfMonth(groups.month);
    // The later of the starts and the earlier of the ends (days compare as text).
    return { from: [month.from, query.from].sort()[1], to: [month.to, query.to].sort()[0], period: groups.month };
  }
  return { from: query.from, to: query.to };
}
