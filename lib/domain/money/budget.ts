import type { Caller } from '../shared/caller.ts';
import { Conflict, Forbidden, NotFound } from '../shared/errors.ts';
import { type BudgetStore, committedOf, type PriceLists, type ReservationWatch } from './ports.ts';
import { listInForce, type PriceList } from './pricing/price-list.ts';
import { budgetCurrencyOf } from './budget-amount.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import { dayIn, dayOf, monthOf } from '../shared/calendar.ts';
import { billingZoneOf, type ClientClockDeps, clientClocks } from './billing-zone.ts';
import { fromMicros, toMicros } from '../shared/money.ts';
import { actingClient, CROSS_CLIENT_MESSAGE } from '../shared/tenancy.ts';

/** A send that takes its month past this share of the budget is warned (decisions §24). */
const WARN_SHARE = 0.8;

/**
 * A client's month as its budget sees it (decisions §27): `spent` what its delivered messages cost, `reserved`
 * the estimates of messages not settled yet, `remaining` the budget less both.
 */
async function budgetView(deps: BudgetViewDeps, clientId: number, now: string) {
  const month = await budgetMonth(deps, clientId, now);
  const [budget, figures, lists] = await Promise.all([
    deps.budgets.get(clientId),
    deps.budgets.month(clientId, month),
    deps.priceLists.lists(clientId),
  ]);
  const reserved = Math.max(0, figures.reserved - figures.released);
  return {
    client_id: clientId,
    monthly_amount: budget ? fromMicros(budget.monthly_micros) : null,
    currency: budgetCurrencyOf(budget, listInForce(lists, dayOf(now))),
    month,
    spent: fromMicros(figures.spent),
    reserved: fromMicros(reserved),
    remaining: budget ? fromMicros(Math.max(0, budget.monthly_micros - figures.spent - reserved)) : null,
  };
}

/** What a budget's answer reads; the directory (and the kept WABA zones) where its month is the client's. */
type BudgetViewDeps = { budgets: BudgetStore; priceLists: Pick<PriceLists, 'lists'> } & Partial<ClientClockDeps>;

/** The budget's month at `now`: the client's in its billing timezone (decisions §31), UTC's without a directory. */
async function budgetMonth(deps: BudgetViewDeps, clientId: number, now: string) {
  if (!deps.directory) return monthOf(now);
  const clocks = await clientClocks({ directory: deps.directory, known: deps.known }, clientId);
  return monthOf(dayIn(now, billingZoneOf(clocks, monthOf(now))));
}

/**
 * PUT /v1/clients/{client_id}/budget (decisions §24, §31): BSP_CN sets or removes a client's monthly budget, in one
 * currency fixed as it is set: the body's, else the client's price list in force's, else USD.
 */
export async function setBudget(
  deps: BudgetViewDeps & { directory: DirectoryStore; now?: () => string },
  caller: Caller,
  clientId: number,
  body: { monthly_amount: number | null; currency?: string },
) {
  if (!caller.isBsp) throw new Forbidden(CROSS_CLIENT_MESSAGE);
  if (!(await deps.directory.getClient(clientId))) throw new NotFound(`Client ${clientId} does not exist`);
  const now = deps.now?.() ?? new Date().toISOString();
  const currency = body.currency ?? budgetCurrencyOf(null, listInForce(await deps.priceLists.lists(clientId), dayOf(now)));
  await deps.budgets.set(clientId, body.monthly_amount === null ? null : toMicros(body.monthly_amount), now, currency);
  return budgetView(deps, clientId, now);
}

/**
 * The currency a send reserves its client's budget in (decisions §31): the budget's, or without one the price
 * list's the send is priced by, else USD.
 */
export async function budgetCurrency(deps: { budgets: Pick<BudgetStore, 'get'> }, clientId: number, list: PriceList | undefined) {
  return budgetCurrencyOf(await deps.budgets.get(clientId), list);
}

/** GET /v1/clients/{client_id}/budget: the month's budget, reservations and what is left (an agent: its own). */
export async function getBudget(deps: BudgetViewDeps & { now?: () => string }, caller: Caller, clientId: number) {
  return budgetView(deps, actingClient(caller, clientId), deps.now?.() ?? new Date().toISOString());
}

/**
 * A send's estimate reserved for the month it goes in (decisions §27: a scheduled send's `send_at` month), in the
 * budget's currency (decisions §31: the send's reservation priced it so), in the one conditional write that also
 * checks the budget has room for it after what the month spent and still reserves: 409 `budget_exceeded` with
 * `remaining` and `estimate`, naming the currency, when it has not. Without a budget the
 * reservation is kept all the same, so a budget set later counts the month so far. Answers the warning when the
 * month is past 80 % after it, how to give the reservation back, and the watch kept with it (when asked).
 */
export async function reserveBudget(
  deps: { budgets: BudgetStore },
  clientId: number,
  estimateMicros: number,
  month: string,
  watch?: Pick<ReservationWatch, 'send_id' | 'due_at'>,
) {
  const budget = await deps.budgets.get(clientId);
  const none = { warning: undefined, release: async () => undefined, watched: undefined };
  if (estimateMicros <= 0) return none;
  const watched = watch && { ...watch, client_id: clientId, month, micros: estimateMicros };
  const after = await deps.budgets.reserve(clientId, month, estimateMicros, budget?.monthly_micros, watched);
  const currency = budgetCurrencyOf(budget, undefined);
  if (after === null) {
    const remaining = fromMicros(Math.max(0, budget!.monthly_micros - committedOf(await deps.budgets.month(clientId, month))));
    throw new Conflict(
      `The send's estimate (${fromMicros(estimateMicros)} ${currency}) exceeds what is left of the client's budget this month (${remaining} ${currency})`,
      'budget_exceeded',
      { remaining, estimate: fromMicros(estimateMicros) },
    );
  }
  const warning =
    budget && after > WARN_SHARE * budget.monthly_micros
      ? {
          code: 'budget_80_percent' as const,
          message: `This month's sends have spent and reserved ${fromMicros(after)} of the client's budget of ${fromMicros(budget.monthly_micros)} ${currency} (over 80 %)`,
        }
      : undefined;
  return { warning, release: () => deps.budgets.release(clientId, month, estimateMicros), watched };
}
