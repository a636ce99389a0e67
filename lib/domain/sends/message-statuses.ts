import { chargeOutsideMessages, type OutsideChargeDeps } from '../money/outside-charges.ts';
import type { ReportedPricing } from '../money/pricing/charge.ts';
import { chargerFor } from '../money/pricing/charging.ts';
import { recipientEstimate } from '../money/pricing/reservation.ts';
import type { BillingCurrencies, BudgetStore, PriceLists, VolumeTiers } from '../money/ports.ts';
import { lateMarkZoneOf } from '../money/billing-zone.ts';
import type { SeenPair } from '../people/people-notifications.ts';
import { pairSeen } from '../people/people-notifications.ts';
import type { SuppressionStore } from '../people/ports.ts';
import type { Log } from '../shared/log.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import { type StatusReport, statusChange, parseMessageReference, withUsername } from '../shared/message-status.ts';
import type { StatusResult, MessageStatuses, StatusUpdate, SendRecords } from './ports.ts';
import { eventDaysOf } from './figures.ts';

/**
 * Meta's statuses of the messages the sends sent (decisions §19, §24): counted on their sends, charged, and a
 * person's opt-out (131050) put on their client's list.
 */
export interface MessageStatusNotification {
  kind: 'message_status';
  message_id: string;
  status: StatusReport;
  reference?: string;
  error?: { code: string; title: string };
  at: number;
  /** The WABA whose number sent it, the recipient's digits and Meta's pricing (decisions §24), when given. */
  waba_id?: string;
  /** The sending number's digits and its id at the upstream, as the webhook's metadata gives them. */
  number_digits?: string;
  phone_number_id?: string;
  recipient?: string;
  /** As Meta reports it: `billable` may be absent, and then its `type` decides (decisions §30). */
  pricing?: ReportedPricing;
  /** The recipient's BSUID and username, when Meta gives them (decisions §28). */
  recipient_user_id?: string;
  username?: string;
}

export interface MessageStatusDeps {
  /** The statuses of the sends' messages. */
  messageStatuses: MessageStatuses;
  /** A send's client, read only when a status says its person stopped marketing (131050). */
  sends: Pick<SendRecords, 'get'>;
  suppressions: Pick<SuppressionStore, 'add'>;
  /** Each WABA's billing currency and month's volume tiers (decisions §26): undefined, USD at base rates. */
  currencies: BillingCurrencies | undefined;
  tiers: VolumeTiers | undefined;
  /** Each client's price lists: a charge gets its price beside its cost (decisions §27); undefined, none. */
  priceLists: Pick<PriceLists, 'lists'> | undefined;
  /** Each client's budget, for the currency its charges count in (decisions §31); undefined, its default. */
  budgets?: Pick<BudgetStore, 'get'>;
  /** Where messages sent elsewhere on a client's number are charged (decisions §30); undefined, they are ignored. */
  outside?: Pick<OutsideChargeDeps, 'outsideCharges' | 'directory'>;
  /** The directory's clients, for a billing timezone BSP_CN set (decisions §31); undefined, the WABA's zone. */
  clients?: Pick<DirectoryStore, 'getClient'>;
  log: Log;
}

/** What became of a status: `later` when it overtook its block (not settled yet), retried by the worker. */
export type StatusOutcome = 'applied' | 'unchanged' | 'ignored' | 'later';

/** A status with its place in the batch and its message's place in its send. */
interface Referenced {
  at: number;
  n: MessageStatusNotification;
  block: number;
  index: number;
}

/** The pair of phone number and BSUID a status shows (decisions §28), taught to its number's client (§32). */
export const pairOfStatus = (n: MessageStatusNotification): SeenPair[] =>
  pairSeen({
    waba_id: n.waba_id,
    number_digits: n.number_digits,
    phone: n.recipient,
    user_id: n.recipient_user_id,
    username: n.username,
    at: n.at,
  });

/**
 * Who a status prices (decisions §28): the recipient's digits, else its BSUID (`recipient_user_id`, where the
 * status carries one: the market of its prefix).
 */
const pricedPerson = (n: MessageStatusNotification) => n.recipient || n.recipient_user_id || n.recipient;

/**
 * Message statuses counted on the sends they belong to, found by the reference each message carried: the
 * statuses of one send are applied together, so its counts take one write per batch, not one per status. A
 * status of a message this service did not send (no reference, or none of its send's) is charged to the client
 * that owns the number (decisions §30). Outcomes in the statuses' order.
 */
export async function applyMessageStatuses(deps: MessageStatusDeps, statuses: MessageStatusNotification[]): Promise<StatusOutcome[]> {
  const outcomes: StatusOutcome[] = new Array(statuses.length);
  const outside: number[] = [];
  const bySend = new Map<string, Referenced[]>();
  for (const [at, n] of statuses.entries()) {
    const reference = parseMessageReference(n.reference);
    if (!reference) outside.push(at);
    else bySend.set(reference.sendId, [...(bySend.get(reference.sendId) ?? []), { at, n, block: reference.block, index: reference.index }]);
  }
  for (const [sendId, group] of bySend) {
    const results = await applyToSend(deps, sendId, group);
    results.forEach((result, i) => {
      if (result === 'unknown') outside.push(group[i].at);
      else outcomes[group[i].at] = result === 'unsettled' ? 'later' : result;
    });
    await suppressOptedOut(
      deps,
      sendId,
      group.filter((_, i) => results[i] === 'applied').map(({ n }) => n),
    );
  }
  const charged = await chargedOutside(
    deps,
    outside.map((at) => statuses[at]),
  );
  for (const [k, at] of outside.entries()) outcomes[at] = charged[k];
  return outcomes;
}

/** Statuses of messages sent elsewhere: charged to the number's client where it has one, else ignored. */
async function chargedOutside(deps: MessageStatusDeps, statuses: MessageStatusNotification[]): Promise<StatusOutcome[]> {
  const { outside, log } = deps;
  if (!outside) {
    for (const n of statuses) log.info('meta notification ignored: a message not sent by this service', { message_id: n.message_id });
    return statuses.map(() => 'ignored');
  }
  return chargeOutsideMessages({ ...deps, ...outside }, statuses);
}

/** One send's statuses of the batch in one write: each priced on its day, with its part of the reservation. */
async function applyToSend(deps: MessageStatusDeps, sendId: string, group: Referenced[]): Promise<StatusResult[]> {
  const priced = group.filter(({ n }) => n.pricing && pricedPerson(n) !== undefined);
  const account = await deps.messageStatuses.accountOf(sendId);
  const price = await chargerFor(
    deps,
    { wabaId: group[0].n.waba_id, clientId: account?.client_id },
    priced.map(({ n }) => n.at),
  );
  // Its charges are late by its client's statement clock (decisions §31).
  const statementZone = priced.length > 0 ? await lateMarkZoneOf(deps, group[0].n.waba_id, account?.client_id) : undefined;
  // Each message's part of its send's reservation, given back when it settles (decisions §27).
  const reservation = account?.reservation;
  const reservedOf = (recipient?: string) =>
    reservation && recipient !== undefined
      ? { reserved: { month: reservation.month, micros: recipientEstimate(reservation, recipient) } }
      : {};
  // Its figures count on the status's day in the WABA's zone, as its charge does (decisions §33).
  const dayOf = await eventDaysOf(deps.currencies, group[0].n.waba_id);
  const updates = group.map(({ n, block, index }): StatusUpdate => {
    // The day and price are the status's: a billable message costs the card's price on the day it is delivered.
    const person = pricedPerson(n);
    const status = n.pricing && person !== undefined ? price(n.pricing, person, n.at) : undefined;
    return {
      block,
      index,
      messageId: n.message_id,
      at: n.at,
      eventDay: dayOf(n.at),
      change: (state) => withUsername(statusChange(state, n.status, n.error, status?.charge), state, n.username),
      ...(status && {
        chargedAt: n.at,
        chargedDay: status.day,
        chargedCategory: status.charge.pricing.category,
        ...(statementZone && { statementZone }),
      }),
      ...(status?.tierVolume && { tierVolume: status.tierVolume }),
      ...reservedOf(person),
    };
  });
  return deps.messageStatuses.applyStatuses(sendId, updates, group[0].n.waba_id);
}

/** A person who stopped marketing from the business (131050, reported after acceptance) joins the client's list. */
async function suppressOptedOut(deps: MessageStatusDeps, sendId: string, applied: MessageStatusNotification[]) {
  const optedOut = applied.filter((n) => n.status === 'failed' && n.error?.code === '131050' && (n.recipient || n.recipient_user_id));
  if (optedOut.length === 0) return;
  const send = await deps.sends.get(sendId);
  if (!send) return;
  for (const n of optedOut)
    await deps.suppressions.add(send.client_id, {
      ...(n.recipient ? { phone: n.recipient } : { user_id: n.recipient_user_id }),
      source: '131050',
      at: new Date(n.at).toISOString(),
      message_id: n.message_id,
    });
}
