import type { Log } from '../shared/log.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import type { ReportedPricing } from './pricing/charge.ts';
import { chargerFor } from './pricing/charging.ts';
import { lateMarkZoneOf } from './billing-zone.ts';
import type { BillingCurrencies, LedgerEntry, OutsideCharges, PriceLists, VolumeTiers } from './ports.ts';

/**
 * A status of a message this service did not send (a reply in the customer-service window, a send from another
 * tool on the same number), as its charge reads it.
 */
export interface OutsideStatus {
  message_id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  at: number;
  waba_id?: string;
  /** The sending number's digits (the webhook's `display_phone_number`): whose client the charge is. */
  number_digits?: string;
  /** The sending number at the upstream, where the webhook gave it: it must be the channel's. */
  phone_number_id?: string;
  recipient?: string;
  recipient_user_id?: string;
  pricing?: ReportedPricing;
}

export interface OutsideChargeDeps {
  outsideCharges: OutsideCharges;
  directory: Pick<DirectoryStore, 'getChannel'>;
  currencies: BillingCurrencies | undefined;
  tiers: VolumeTiers | undefined;
  priceLists: Pick<PriceLists, 'lists'> | undefined;
  /** The directory's clients, for a billing timezone BSP_CN set (decisions §31); undefined, the WABA's zone. */
  clients?: Pick<DirectoryStore, 'getClient'>;
  log: Log;
}

/** `applied`: charged now; `unchanged`: charged already; `ignored`: nothing to charge, or no client owns the number. */
export type OutsideOutcome = 'applied' | 'unchanged' | 'ignored';

/**
 * Charges of messages sent elsewhere (decisions §30): a delivered or read status with Meta's pricing is charged to
 * the client whose channel the sending number is, once a message, priced as any other by Meta's category (a
 * service message at the utility rate where Meta bills it, upstream-facts §9.D). Outcomes in the statuses' order.
 */
export async function chargeOutsideMessages(deps: OutsideChargeDeps, statuses: OutsideStatus[]): Promise<OutsideOutcome[]> {
  const outcomes: OutsideOutcome[] = [];
  for (const status of statuses) outcomes.push(await chargeOutside(deps, status));
  return outcomes;
}

async function chargeOutside(deps: OutsideChargeDeps, n: OutsideStatus): Promise<OutsideOutcome> {
  const person = n.recipient || n.recipient_user_id;
  // Meta charges a message when it is delivered: a sent or failed status charges nothing.
  if (!n.pricing || !person || !n.waba_id || !n.number_digits || (n.status !== 'delivered' && n.status !== 'read')) return 'ignored';
  const channel = await deps.directory.getChannel(n.number_digits);
  const owned =
    channel && !channel.deleted && channel.waba_id === n.waba_id && (!n.phone_number_id || channel.phone_number_id === n.phone_number_id);
  if (!channel || !owned) {
    deps.log.info('meta notification ignored: a message sent elsewhere on a number of no client', { message_id: n.message_id });
    return 'ignored';
  }
  const price = await chargerFor(deps, { wabaId: n.waba_id, clientId: channel.client_id }, [n.at]);
  // Its day is the WABA's (decisions §31), as a sent message's.
  const { charge, day, tierVolume } = price(n.pricing, person, n.at);
  const entry: LedgerEntry = {
    day,
    did: channel.wa_id,
    market: charge.market,
    category: charge.pricing.category,
    currency: charge.currency,
    ...(charge.currency_mismatch && { currency_mismatch: true as const }),
    messages: 1,
    billable: charge.pricing.billable ? 1 : 0,
    micros: charge.micros,
    ...(charge.price && { price_micros: charge.price.micros, price_currency: charge.price.currency }),
    origin: 'outside',
  };
  const charged = await deps.outsideCharges.charge({
    message_id: n.message_id,
    waba_id: n.waba_id,
    client_id: channel.client_id,
    entry,
    // Only what costs something moves the tier, as for the sends' messages.
    ...(tierVolume && charge.micros > 0 && { tierVolume }),
    statementZone: await lateMarkZoneOf(deps, n.waba_id, channel.client_id),
  });
  return charged ? 'applied' : 'unchanged';
}
