import type { Log } from '../shared/log.ts';
import type { BudgetStore } from './ports.ts';
import { listInForce, type PriceList } from './pricing/price-list.ts';
import { BASE_CURRENCY } from './pricing/rate-card.ts';

/**
 * What a message counts against its client's budget, in the budget's one currency (decisions §27, §31: no sum
 * mixes currencies). A budget's spent and reserved are sums of these.
 */

/** An amount in micro-units of its currency. */
export interface Amount {
  micros: number;
  currency: string;
}

/** A budget as kept: its currency fixed when BSP_CN set it; a budget set before budgets had one is in USD. */
export interface KeptBudget {
  currency?: string;
}

/**
 * The currency a client's budget counts in: the budget's own; without a budget (its month is counted all the
 * same, for a budget set later), the one a budget set then would take: the price list in force's, else USD.
 */
export function budgetCurrencyOf(budget: KeptBudget | null | undefined, listInForce: PriceList | undefined): string {
  if (budget) return budget.currency ?? BASE_CURRENCY;
  return listInForce?.currency ?? BASE_CURRENCY;
}

/**
 * An amount in another currency by a price list's exchange rates (units of the list's currency per unit of
 * another), to the micro-unit; undefined where the list has no rate for either currency.
 */
export function convertedBy(list: PriceList | undefined, amount: Amount, currency: string): number | undefined {
  if (amount.currency === currency) return amount.micros;
  if (!list) return undefined;
  const rateOf = (code: string) => (code === list.currency ? 1 : list.exchange_rates?.[code]);
  const from = rateOf(amount.currency);
  const to = rateOf(currency);
  if (!from || !to) return undefined;
  return Math.round((amount.micros * from) / to);
}

/** One message as its budget counts it: Meta's cost, the client's price where a list priced it, and that list. */
export interface BudgetedMessage {
  cost: Amount;
  price?: Amount;
  /** The list in force that day: its exchange rates convert. */
  list?: PriceList;
  /** The message's cost at the base currency's card: what counts when nothing converts. */
  baseCostMicros: () => number;
}

/**
 * A message's amount in the budget's currency: the price where it is in that currency, else the cost where it
 * is, else the price (or the cost) converted by the list's exchange rates, else the base currency's cost, logged
 * as not convertible. Undefined where the amount is the cost itself and no list priced it (the charge's `micros`).
 */
export function budgetMicrosOf(budgetCurrency: string, m: BudgetedMessage, log?: Log): number | undefined {
  if (m.price?.currency === budgetCurrency) return m.price.micros;
  if (m.cost.currency === budgetCurrency) return m.price ? m.cost.micros : undefined;
  const converted = (m.price && convertedBy(m.list, m.price, budgetCurrency)) ?? convertedBy(m.list, m.cost, budgetCurrency);
  if (converted !== undefined) return converted;
  log?.info('budget: a charge not convertible to the budget currency, counted at the base currency cost', {
    budget_currency: budgetCurrency,
    cost_currency: m.cost.currency,
    ...(m.price && { price_currency: m.price.currency }),
  });
  return m.baseCostMicros();
}

/** What a charger reads to count a batch's charges against their client's budget. */
export interface BudgetCounterDeps {
  /** The client's budget, for its currency; absent, a charge counts in the currency a budget would take. */
  budgets?: Pick<BudgetStore, 'get'>;
  log?: Log;
}

/**
 * How a batch's charges of a client count against its budget (its budget read once a batch): each charge's
 * amount in the budget's currency, or undefined where that is the charge's own cost (budgetMicrosOf).
 */
export async function budgetCounter(deps: BudgetCounterDeps, clientId: number | undefined, lists: PriceList[]) {
  const budget = clientId !== undefined && deps.budgets ? await deps.budgets.get(clientId) : null;
  return (m: { charge: Amount; price?: Amount; day: string; baseCostMicros: () => number }) => {
    const list = listInForce(lists, m.day);
    return budgetMicrosOf(
      budgetCurrencyOf(budget, list),
      { cost: m.charge, price: m.price, list, baseCostMicros: m.baseCostMicros },
      deps.log,
    );
  };
}
