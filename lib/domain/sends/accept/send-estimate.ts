import { rateCards } from '../../money/pricing/cards/index.ts';
import { type Estimate, estimateOf, inClientPrice } from '../../money/pricing/estimate.ts';
import { listInForce, type PriceList } from '../../money/pricing/price-list.ts';
import { BASE_CURRENCY } from '../../money/pricing/rate-card.ts';
import type { Caller } from '../../shared/caller.ts';
import { sees, viewerOf } from '../../money/pricing/visibility.ts';
import { personKey } from '../dispatch/job.ts';
import type { FoundTemplate } from './find-template.ts';
import type { DryRunDeps } from './send-deps.ts';
import { dayIn } from '../../shared/calendar.ts';
import { billingOfWaba } from '../../money/billing-currencies.ts';
import type { WabaBilling } from '../../money/ports.ts';
import { DEFAULT_WABA_ZONE } from '../../shared/meta-timezones.ts';
import type { MaxPrice } from '../../money/pricing/reservation.ts';
import { InvalidRequest } from '../../shared/errors.ts';

/** What a send is estimated to cost (decisions §26, §27): in the WABA's currency, then in the client's price. */

/**
 * The WABA's billing currency and zone for an estimate (decisions §26, §31): the base currency and UTC when they
 * cannot be read now (an estimate never stops a send; the charges are priced in the WABA's when Meta reports them).
 */
const billingOf = async (deps: Pick<DryRunDeps, 'currencies'>, wabaId: string): Promise<WabaBilling> =>
  (await billingOfWaba(deps.currencies, wabaId).catch(() => undefined)) ?? { currency: BASE_CURRENCY, zone: DEFAULT_WABA_ZONE };

/** The client's price list in force on the day a send goes, and the send's estimate in it. */
export interface SendPrice {
  priceList?: PriceList;
  estimate: Estimate;
  /** The WABA's zone (decisions §31): the day the send goes, and its reservation's month, are its. */
  zone: string;
}

/** Estimate: every recipient on today's rate card, in the price list in force on the day the send goes. */
export async function priceOfSend(
  deps: Pick<DryRunDeps, 'priceLists' | 'currencies'>,
  found: FoundTemplate,
  recipients: { to?: string; user_id?: string }[],
  at: { now: string; goes: string },
  maxPrice?: MaxPrice,
): Promise<SendPrice> {
  const lists = await deps.priceLists.lists(found.clientId);
  const category = found.template.category;
  const { currency, zone } = await billingOf(deps, found.provider.wabaId);
  // Meta takes a bid in the WABA's billing currency (decisions §31, §34): a max price in another is refused.
  if (maxPrice && maxPrice.currency !== currency)
    throw new InvalidRequest('max_price must be in the WABA’s billing currency', [
      { path: 'max_price.currency', message: `must be ${currency}, the billing currency of WABA ${found.provider.wabaId}` },
    ]);
  const cost = estimateOf(rateCards, recipients.map(personKey), category, Date.parse(at.now), currency, zone, maxPrice);
  // Priced on the day the send goes: a scheduled send accepted before its list starts is in the list's price.
  const estimate = inClientPrice(cost, lists, category, Date.parse(at.goes), zone);
  return { priceList: listInForce(lists, dayIn(at.goes, zone)), estimate, zone };
}

/**
 * The estimate as answered: its micro-units are the budget's, not the caller's; Meta's cost beside a price (set
 * only where the client has price lists) is shown as visibility.ts says: to BSP_CN alone.
 */
export const shownEstimate = ({ micros: _micros, cost, ...shown }: Estimate, caller: Caller) => ({
  ...shown,
  ...(cost && sees(viewerOf(caller, true), 'cost') && { cost }),
});
