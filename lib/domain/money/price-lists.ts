import type { Caller } from '../shared/caller.ts';
import { Conflict, Forbidden, InvalidRequest, NotFound } from '../shared/errors.ts';
import type { BillingCurrencies, PriceLists } from './ports.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import { checkListCurrency } from './price-list-currency.ts';
import { listsOn, type PriceList } from './pricing/price-list.ts';
import { dayOf } from '../shared/calendar.ts';
import { actingClient, CROSS_CLIENT_MESSAGE } from '../shared/tenancy.ts';
import { rateCards } from './pricing/cards/index.ts';
import { priceTableOf } from './pricing/price-table.ts';
import { sees, viewerOf } from './pricing/visibility.ts';

/** A list in force is never replaced (decisions §27): what a past day was priced at stays true. */
export const PRICE_LIST_IN_FORCE = 'price_list_in_force';

/** The body of `PUT /v1/clients/{client_id}/price-list`, as validated (lib/schemas/price-list.ts). */
export type PriceListInput = Pick<
  PriceList,
  'effective_from' | 'currency' | 'markup_percent' | 'max_price_markup_percent' | 'prices' | 'exchange_rates'
>;

type Deps = { priceLists: PriceLists; directory: Pick<DirectoryStore, 'getClient'>; now?: () => string };

/**
 * What a put reads besides: the client's WABAs and the currency Meta bills each in (decisions §31). Without
 * `currencies` (tests of other rules) no WABA's currency is known and the list's currency is not checked.
 */
type PutDeps = Deps & { directory: Pick<DirectoryStore, 'listClientWabas'>; currencies?: BillingCurrencies };

const unknownClient = (clientId: number) => new NotFound(`Client ${clientId} does not exist`);

/**
 * A client's lists as the caller may see them (decisions §32): BSP_CN sees each as it was set; an agent sees the
 * prices each gives (on the card in force today for the list in force, on its first day for the others), never the
 * markup, which gives Meta's cost away.
 */
async function listsView(deps: Deps, caller: Caller, clientId: number, now: string) {
  const today = dayOf(now);
  const { in_force, upcoming, past } = listsOn(await deps.priceLists.lists(clientId), today);
  if (sees(viewerOf(caller, true), 'markup')) return { client_id: clientId, in_force, upcoming, past };
  const table = (list: PriceList, day = list.effective_from) => priceTableOf(list, rateCards, day);
  return {
    client_id: clientId,
    in_force: in_force && table(in_force, today),
    upcoming: upcoming.map((l) => table(l)),
    past: past.map((l) => table(l)),
  };
}

const inForceConflict = (effectiveFrom: string) =>
  new Conflict(
    `The client's price list from ${effectiveFrom} is in force: it is never replaced (set one from a later day)`,
    PRICE_LIST_IN_FORCE,
  );

/**
 * PUT /v1/clients/{client_id}/price-list (decisions §27, §31): BSP_CN adds a list of what the client pays from
 * `effective_from` on (today, UTC, or later: a new list never edits a past day). A list of that date not yet in
 * force is replaced; one in force is 409 `price_list_in_force`, whatever the new one says. A list that cannot
 * convert Meta's cost of the client's WABAs is 400 (price-list-currency.ts). Answers the client's lists as GET does.
 */
export async function putPriceList(deps: PutDeps, caller: Caller, clientId: number, body: PriceListInput) {
  if (!caller.isBsp) throw new Forbidden(CROSS_CLIENT_MESSAGE);
  if (!(await deps.directory.getClient(clientId))) throw unknownClient(clientId);
  const now = deps.now?.() ?? new Date().toISOString();
  const today = dayOf(now);
  if (body.effective_from < today) {
    throw new InvalidRequest(`effective_from must be today (${today}, UTC) or later: a new price list never edits a past one`, [
      { path: 'effective_from', message: `must not be before ${today}` },
    ]);
  }
  if (body.effective_from === today && (await deps.priceLists.lists(clientId)).some((l) => l.effective_from === today)) {
    throw inForceConflict(body.effective_from);
  }
  if (deps.currencies) await checkListCurrency({ directory: deps.directory, currencies: deps.currencies }, rateCards, clientId, body);
  const list: PriceList = {
    client_id: clientId,
    effective_from: body.effective_from,
    currency: body.currency,
    ...(body.markup_percent !== undefined && { markup_percent: body.markup_percent }),
    ...(body.max_price_markup_percent !== undefined && { max_price_markup_percent: body.max_price_markup_percent }),
    ...(body.prices !== undefined && { prices: body.prices }),
    ...(body.exchange_rates !== undefined && { exchange_rates: body.exchange_rates }),
    created_at: now,
  };
  if (!(await deps.priceLists.put(list))) throw inForceConflict(body.effective_from);
  return listsView(deps, caller, clientId, now);
}

/**
 * GET /v1/clients/{client_id}/price-list (decisions §27, §32): the client's list in force today (UTC, or null),
 * those to come and the past ones. BSP_CN, or the client's own agent, who sees its prices as a table.
 */
export async function getPriceLists(deps: Deps, caller: Caller, clientId: number) {
  const client = actingClient(caller, clientId);
  if (!(await deps.directory.getClient(client))) throw unknownClient(client);
  return listsView(deps, caller, client, deps.now?.() ?? new Date().toISOString());
}
