import { type ErrorDetail, InvalidRequest, UpstreamUnavailable } from '../shared/errors.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import type { BillingCurrencies } from './ports.ts';
import type { PriceList } from './pricing/price-list.ts';
import { BASE_CURRENCY, type RateCards } from './pricing/rate-card.ts';

/** A currency Meta's cost of a WABA's messages is in, from the first card date it is (YYYY-MM-DD). */
export interface CostCurrency {
  currency: string;
  from: string;
}

/**
 * The currencies Meta's cost of a WABA billed in `billing` is in from `day` on (decisions §26, §31): on each card
 * date from the one in force that day, the card's currency, the WABA's own where a card in it exists, else the
 * base currency's (as the send path prices, `currency_mismatch`); both where the WABA's card is partial (decisions
 * §31: it prices only the markets a source gives). Each currency once, from its first date.
 */
export function costCurrenciesFrom(cards: RateCards, day: string, billing: string): CostCurrency[] {
  const first = cards.inForce(day).card.effective_from;
  const dates = cards
    .all()
    .filter((card) => card.currency === BASE_CURRENCY && card.effective_from >= first)
    .map((card) => card.effective_from);
  const found = new Map<string, string>();
  const add = (currency: string, date: string) => found.has(currency) || found.set(currency, date);
  for (const date of dates) {
    // A partial card of the WABA's currency prices only its markets: the others are priced on the base card.
    const own = cards.all().find((card) => card.currency === billing && card.effective_from === date);
    if (own) add(own.currency, date);
    if (!own || own.partial) add(BASE_CURRENCY, date);
  }
  return [...found].map(([currency, from]) => ({ currency, from }));
}

/** What a list needs from a WABA it prices: a rate for each cost currency other than its own. */
function missingRate(
  list: Pick<PriceList, 'currency' | 'exchange_rates'>,
  waba: string,
  billing: string,
  cost: CostCurrency,
): ErrorDetail[] {
  if (cost.currency === list.currency || list.exchange_rates?.[cost.currency] !== undefined) return [];
  const path = `exchange_rates.${cost.currency}`;
  if (cost.currency === billing) {
    return [{ path, message: `currency ${list.currency} is not the billing currency of WABA ${waba} (${billing}): give ${path}` }];
  }
  return [
    {
      path,
      message: `WABA ${waba} is billed in ${billing}, which Meta's cards price in ${cost.currency} from ${cost.from} (no ${billing} card): give ${path}`,
    },
  ];
}

export interface ListCurrencyDeps {
  directory: Pick<DirectoryStore, 'listClientWabas'>;
  currencies: BillingCurrencies;
}

/** A WABA's billing currency for the check; one Meta cannot tell (and none kept) stops the list: nothing is guessed. */
async function billingOf(currencies: BillingCurrencies, waba: string): Promise<string> {
  try {
    return await currencies.currencyOf(waba);
  } catch {
    throw new UpstreamUnavailable(`The billing currency of WABA ${waba} could not be read from Meta: try again`);
  }
}

/**
 * A list must convert every cost of the client's WABAs (decisions §31): for each cost currency other than its own,
 * from its `effective_from` on, it gives an exchange rate, or it is 400 naming the currency and the WABA. A list of
 * fixed prices alone needs them too: a market or category it does not name is priced at Meta's cost (plus its
 * markup, if any), which a list in another currency could not do. A client without WABAs: nothing to check.
 */
export async function checkListCurrency(
  deps: ListCurrencyDeps,
  cards: RateCards,
  clientId: number,
  list: Pick<PriceList, 'effective_from' | 'currency' | 'markup_percent' | 'exchange_rates'>,
): Promise<void> {
  const problems: ErrorDetail[] = [];
  for (const waba of await deps.directory.listClientWabas(clientId)) {
    const billing = await billingOf(deps.currencies, waba);
    for (const cost of costCurrenciesFrom(cards, list.effective_from, billing)) problems.push(...missingRate(list, waba, billing, cost));
  }
  if (problems.length === 0) return;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more: see details)` : '';
  throw new InvalidRequest(`${problems[0].message}${more}`, problems);
}
