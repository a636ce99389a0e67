import type { Caller } from '../shared/caller.ts';
import { NotFound } from '../shared/errors.ts';
import { type PageRequest, resolvePage } from '../shared/paging.ts';
import type { SendCounts, SendRecord, SendRecords } from './ports.ts';
import { fromMicros, toMicros } from '../shared/money.ts';
import { BASE_CURRENCY } from '../money/pricing/rate-card.ts';
import { hasPriceList, isPricedSend, type MoneyShown, moneyShown } from '../money/pricing/visibility.ts';
import type { PriceLists } from '../money/ports.ts';
import { actingClient } from '../shared/tenancy.ts';
import { abShown } from './ab/ab-view.ts';

/**
 * What a client's webhooks get of a send's money (decisions §32): its price where it has one, never Meta's cost.
 * An event is written where the client's price lists are not read (the dispatcher), so it cannot tell whether the
 * client has a list now; the cost stays on the API, where the caller's view is decided.
 */
export const EVENT_VIEW: MoneyShown = { cost: false, price: true, margin: false };

/**
 * Send status (decisions §12): what the dispatcher did with a send so far. `pending` is what it has not
 * settled yet; the status follows from the counts, so it is exact whenever they are.
 */
export function sendStatusOf(send: SendRecord, shown: MoneyShown = EVENT_VIEW) {
  const counts = countsAsRead(send.counts);
  const settled = settledOf(counts);
  const pending = Math.max(0, send.total - settled);
  return {
    send_id: send.send_id,
    client_id: send.client_id,
    did: send.did,
    template: send.template,
    ...(send.campaignId !== undefined && { campaignId: send.campaignId }),
    status: statusOf(send, pending, settled),
    created_at: send.created_at,
    total: send.total,
    duplicates_removed: counts.duplicates_removed,
    suppressed: counts.suppressed,
    expired: counts.expired,
    sent: counts.sent,
    held: counts.held,
    delivered: counts.delivered,
    read: counts.read,
    failed: counts.failed,
    capped: counts.capped,
    capped_by_rule: counts.capped_by_rule,
    cancelled: counts.cancelled,
    pending,
    errors: send.errors ?? [],
    ...moneyOf(send, shown),
    ...(send.stopped && { stopped: send.stopped }),
    ...(send.cancelled_at && { cancelled_at: send.cancelled_at }),
    ...(send.send_at && { send_at: send.send_at }),
    ...(send.paused && pending > 0 && { paused_until: send.paused.until }),
    ...(send.resend_of && { resend_of: send.resend_of }),
    ...(send.resent_as?.length && { resent_as: send.resent_as }),
    ...abShown(send.ab),
  };
}

/**
 * A send's amounts as the caller may see them (decisions §27): Meta's cost, the client's price where its price
 * list was in force, and the margin between them.
 */
function moneyOf(send: SendRecord, shown: MoneyShown) {
  const charges = send.charges ?? {};
  const cost = costOf(charges, send.currency);
  const price = send.price_list ? priceOf(charges, send.price_list.currency) : undefined;
  return {
    ...(shown.cost && { cost }),
    ...(shown.price && price && { price }),
    // An agent of a priced client, on a send billed at Meta's cost before its list: named, never filled with cost.
    ...(!shown.cost && !price && { unpriced: true as const }),
    ...(shown.margin &&
      price &&
      price.currency === cost.currency && { margin: fromMicros(toMicros(price.amount) - toMicros(cost.amount)) }),
  };
}

/** What the client pays for a send's delivered messages so far, by Meta's pricing category. */
function priceOf(charges: NonNullable<SendRecord['charges']>, currency: string) {
  const categories = Object.entries(charges).sort(([a], [b]) => a.localeCompare(b));
  return {
    currency,
    amount: fromMicros(categories.reduce((sum, [, c]) => sum + (c.price_micros ?? 0), 0)),
    by_category: Object.fromEntries(
      categories.map(([category, c]) => [category, { messages: c.messages, amount: fromMicros(c.price_micros ?? 0) }]),
    ),
  };
}

/**
 * A send's cost as delivered so far (decisions §24): total, billable messages, and by Meta's pricing category,
 * in the currency of its WABA (USD for sends accepted before issue 41).
 */
export function costOf(charges: NonNullable<SendRecord['charges']>, currency = BASE_CURRENCY) {
  const categories = Object.entries(charges).sort(([a], [b]) => a.localeCompare(b));
  const micros = categories.reduce((sum, [, c]) => sum + c.micros, 0);
  return {
    currency,
    amount: fromMicros(micros),
    billable: categories.reduce((sum, [, c]) => sum + c.billable, 0),
    by_category: Object.fromEntries(categories.map(([category, c]) => [category, { messages: c.messages, amount: fromMicros(c.micros) }])),
  };
}

export const NO_COUNTS: SendCounts = {
  duplicates_removed: 0,
  suppressed: 0,
  held: 0,
  expired: 0,
  sent: 0,
  failed: 0,
  capped: 0,
  capped_by_rule: 0,
  delivered: 0,
  read: 0,
  cancelled: 0,
};

/** The recipients a send settled, whatever became of them: all but those still pending. */
export const settledOf = (counts: SendCounts) =>
  counts.duplicates_removed +
  counts.suppressed +
  counts.expired +
  counts.sent +
  counts.failed +
  counts.capped +
  counts.capped_by_rule +
  counts.cancelled;

/**
 * A send's counts as a reader may see them: none below zero. A status applied while its block is still claimed
 * (decisions §30: every status counts at once) moves its message on from the outcome the block's settlement adds
 * later: a delivery after an unknown outcome takes back a `failed` not yet added, a failure takes back a `sent`,
 * a delivery releases a `held`. Until that settlement commits, such a count reads below zero by what it takes back;
 * its true value is 0 or more, and the sum is exact once the block settles.
 */
export function countsAsRead(given: Partial<SendCounts> | undefined): SendCounts {
  const counts = { ...NO_COUNTS, ...given };
  for (const field of Object.keys(counts) as (keyof SendCounts)[]) counts[field] = Math.max(0, counts[field]);
  return counts;
}

/**
 * A cancelled send stays `cancelled` (its unclaimed recipients settle as they come off the queue); a scheduled
 * one is `scheduled` until its jobs are released at its time.
 */
function statusOf(send: SendRecord, pending: number, settled: number) {
  if (send.cancelled_at) return 'cancelled' as const;
  if (send.paused && pending > 0) return 'paused' as const;
  if (send.send_at && !send.released_at && settled === 0) return 'scheduled' as const;
  if (pending === 0) return 'completed' as const;
  return settled === 0 ? ('queued' as const) : ('sending' as const);
}

/** A send the caller may see: another client's is not found, unless the caller has BSP_CN. */
export async function visibleSend(deps: { sends: SendRecords }, caller: Caller, sendId: string) {
  const send = await deps.sends.get(sendId);
  const visible = send && send.status === 'queued' && (send.client_id === caller.clientId || caller.isBsp);
  if (!visible) throw new NotFound(`Send ${sendId} does not exist`);
  return send;
}

/** What a send's answer reads: the sends, and its client's price lists where its agent must not see a cost. */
export interface SendViewDeps {
  sends: SendRecords;
  priceLists: Pick<PriceLists, 'lists'>;
}

/** A send nothing was billed for yet has no cost to hide: it costs 0 to every viewer. */
const billed = (send: SendRecord) => Object.keys(send.charges ?? {}).length > 0;

/**
 * Which of the sends' money the caller sees (decisions §32), a view each. A send billed at Meta's cost (not priced)
 * shows an agent its cost only where its client has no price list, in force or to come: the lists are read then,
 * once for them all, and never for BSP_CN or for priced sends.
 */
export async function moneyShownOn(deps: Pick<SendViewDeps, 'priceLists'>, caller: Caller, sends: SendRecord[]): Promise<MoneyShown[]> {
  const costly = sends.filter((send) => !isPricedSend(send) && billed(send));
  const listed = caller.isBsp || costly.length === 0 ? false : hasPriceList(await deps.priceLists.lists(costly[0].client_id));
  return sends.map((send) => moneyShown(caller, isPricedSend(send) || (costly.includes(send) && listed)));
}

/** GET /v1/sends/{send_id}: another client's send is not found, unless the caller has BSP_CN. */
export async function getSend(deps: SendViewDeps, caller: Caller, sendId: string) {
  const send = await visibleSend(deps, caller, sendId);
  const [shown] = await moneyShownOn(deps, caller, [send]);
  return sendStatusOf(send, shown);
}

export const SENDS_PAGE = { size: 20, max: 100 };

/** GET /v1/sends: the acting client's sends, newest first. */
export async function listSends(deps: SendViewDeps, caller: Caller, query: PageRequest & { client_id?: number }) {
  const clientId = actingClient(caller, query.client_id);
  const page = resolvePage(query, SENDS_PAGE);
  const { sends, total } = await deps.sends.list(clientId, page);
  const shown = await moneyShownOn(deps, caller, sends);
  return {
    data: sends.map((send, i) => sendStatusOf(send, shown[i])),
    total,
    page: page.page,
    page_size: page.size,
  };
}
