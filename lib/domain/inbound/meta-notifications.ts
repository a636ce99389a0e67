import { type DeliveryReport, deliveryChange, type MessagePricing, parseMessageReference, withUsername } from '../shared/message-status.ts';
import { chargerFor } from '../money/pricing/charging.ts';
import { recipientEstimate } from '../money/pricing/reservation.ts';
import { reachedTier, type TierUpdate } from '../money/pricing/tiers.ts';
import { applyInboundConsent } from '../people/suppression.ts';
import { applyIdentityMove, applyPreference, learnPeople, type PeopleNotification, type SeenPair } from '../people/people-notifications.ts';
import { templateEvent } from '../templates/template-events.ts';
import type { Log } from '../shared/log.ts';
import { publishSaved } from '../webhooks/outbox.ts';
import { inParallel } from '../shared/parallel.ts';
import type { EventPublisher, OutboxStore } from '../webhooks/ports.ts';
import type { DeliveryStatuses, SendRecords } from '../sends/ports.ts';
import type { JobQueue } from '../shared/ports.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import type { PriceLists, VolumeTiers } from '../money/ports.ts';
import type { BillingCurrencies } from '../money/ports.ts';
import type { MarketingOnboardings } from '../sends/ports.ts';
import { onboardedByMeta } from '../sends/send-people.ts';
import type { IdentityMap, SuppressionStore } from '../people/ports.ts';
import type { JobWaker, PausedJobs } from '../sends/dispatch/ports.ts';
import type { TemplatePauses } from '../templates/ports.ts';
import { wakePausedJobs } from '../sends/dispatch/paused-jobs.ts';
import type { TemplateRecords, TemplateRevision } from '../templates/ports.ts';
import type { ThroughputStore } from '../sends/dispatch/ports.ts';
import { oldestRecord } from '../templates/template-listing.ts';
import { headerTypeOf, type MetaTemplate, type TemplateRecord } from '../templates/template-record.ts';

/**
 * Meta's webhooks (decisions §13), in the domain's words. The endpoint only checks the signature and queues
 * each change; the worker applies them here. Every notification is applied so that a repeat, or one older
 * than what the records already know, changes nothing.
 */

/** One change of a notification as it is queued: the WABA it is about, when Meta sent it, its field and value. */
export interface NotifiedChange {
  waba_id: string;
  /** The id of the request that brought it: the events it causes carry it (decisions §15). */
  correlation_id?: string;
  /** Meta's entry time, epoch milliseconds. */
  at: number;
  field: string;
  value: unknown;
}

/** What a change says, once read (lib/adapters/meta/webhook-payload.ts). */
export type MetaNotification =
  | { kind: 'template_status'; waba_id: string; template_id: string; at: number; event: string; reason?: string | null }
  | {
      kind: 'template_category';
      waba_id: string;
      template_id: string;
      at: number;
      new_category: string;
      /** Present when the change is done; absent when Meta only announces it (then `correct_category` is). */
      previous_category?: string;
      correct_category?: string;
    }
  | { kind: 'template_quality'; waba_id: string; template_id: string; at: number; new_quality: string }
  | { kind: 'number_quality'; waba_id: string; number_digits: string; event: string; at: number }
  | {
      /** A person's text to one of the numbers (`number_digits`): an opt-out or opt-in keyword (decisions §25). */
      kind: 'inbound_message';
      waba_id: string;
      number_digits: string;
      /** The sender's digits: absent for a username user whose number Meta does not share (decisions §28). */
      from?: string;
      /** The sender's BSUID and username (decisions §28). */
      user_id?: string;
      username?: string;
      message_id: string;
      text: string;
      at: number;
    }
  /** A WABA reached another volume tier of a market's pricing category (decisions §26): the ledger's count raised. */
  | ({ kind: 'pricing_tier' } & TierUpdate)
  /** The WABA's business accepted the Marketing Messages API's terms (`MM_LITE_TERMS_SIGNED`, decisions §28). */
  | { kind: 'mm_onboarded'; waba_id: string; at: number }
  | {
      kind: 'message_status';
      message_id: string;
      status: DeliveryReport;
      reference?: string;
      error?: { code: string; title: string };
      at: number;
      /** The WABA whose number sent it, the recipient's digits and Meta's pricing (decisions §24), when given. */
      waba_id?: string;
      recipient?: string;
      pricing?: MessagePricing;
      /** The recipient's BSUID and username, when Meta gives them (decisions §28). */
      recipient_user_id?: string;
      username?: string;
    }
  | PeopleNotification;

export type TemplateNotification = Extract<MetaNotification, { template_id: string }>;

/** Clients whose records one template notification rewrites at once. */
const CLIENTS_AT_ONCE = 8;

/** The change as the endpoint accepted it: queued for the worker, one job per change. */
export async function acceptNotification(deps: { queue: JobQueue; log: Log }, changes: NotifiedChange[], requestId?: string) {
  const jobs = changes.map((change) => ({ ...change, ...(requestId && { correlation_id: requestId }) }));
  if (jobs.length > 0) await deps.queue.send(jobs as unknown as Record<string, unknown>[]);
  deps.log.info('meta notification accepted', { changes: changes.length, fields: [...new Set(changes.map((c) => c.field))] });
  return { success: true as const, changes: changes.length };
}

/**
 * Template statuses as the webhook names them, mapped to the status the template then has (upstream-facts §2).
 * FLAGGED, LOCKED and UNLOCKED say something about the template without changing its status.
 */
const STATUS_OF_EVENT: Record<string, string | undefined> = {
  REINSTATED: 'APPROVED',
  UNPAUSE: 'APPROVED',
  UNARCHIVED: 'APPROVED',
  FLAGGED: undefined,
  LOCKED: undefined,
  UNLOCKED: undefined,
};
const statusOf = (event: string) => (event in STATUS_OF_EVENT ? STATUS_OF_EVENT[event] : event);

/** The template as it is after the notification, or null when the notification adds nothing. */
export function notifiedTemplate(meta: MetaTemplate, notification: TemplateNotification): MetaTemplate | null {
  const next: MetaTemplate = { ...meta };
  switch (notification.kind) {
    case 'template_status': {
      const status = statusOf(notification.event);
      if (status === undefined) return null;
      next.status = status;
      // An approval says NONE; a template scheduled for deletion has none.
      if (notification.reason !== undefined) next.rejected_reason = notification.reason ?? 'NONE';
      break;
    }
    case 'template_category':
      if (notification.previous_category !== undefined) {
        next.category = notification.new_category;
        next.previous_category = notification.previous_category;
        delete next.correct_category;
      } else if (notification.correct_category !== undefined) next.correct_category = notification.correct_category;
      break;
    case 'template_quality':
      next.quality_score = { score: notification.new_quality, date: Math.floor(notification.at / 1000) };
      break;
  }
  return JSON.stringify(next) === JSON.stringify(meta) ? null : next;
}

export interface ApplyNotificationDeps {
  records: TemplateRecords;
  /** The statuses of the sends' messages. */
  deliveryStatuses: DeliveryStatuses;
  /** A send's client, read only when a status says its person stopped marketing (131050). */
  sends: Pick<SendRecords, 'get'>;
  suppressions: SuppressionStore;
  /** Who is who (decisions §28): learned from statuses and inbound messages, moved by Meta's change events. */
  identities?: IdentityMap;
  /** Whose number an inbound message reached. */
  directory: Pick<DirectoryStore, 'getChannel' | 'getWaba'>;
  /** Templates Meta paused or disabled, as the dispatcher reads them (decisions §25). */
  pauses?: TemplatePauses;
  /** The jobs asleep on each paused template, and the dispatch queue that wakes them when Meta lets it go. */
  waking?: { pausedJobs: PausedJobs; waker: JobWaker };
  levels: ThroughputStore;
  outbox: OutboxStore;
  publisher: EventPublisher;
  /** Each WABA's billing currency and month's volume tiers (decisions §26); USD at base rates without them. */
  currencies?: BillingCurrencies;
  tiers?: VolumeTiers;
  /** Each client's price lists: a charge gets its price beside its cost (decisions §27). */
  priceLists?: Pick<PriceLists, 'lists'>;
  /** Each WABA's onboarding to the Marketing Messages API (decisions §28). */
  onboardings?: MarketingOnboardings;
  log: Log;
}

/** What became of one notification: the worker retries `later` ones after a short while. */
export type NotificationOutcome = 'applied' | 'unchanged' | 'ignored' | 'later';

/**
 * A template notification reaches every record of the template, of every client sharing the WABA. Each client's
 * records change in one write with that client's `template.status_changed` event when the status changed.
 */
async function applyToTemplate(
  deps: ApplyNotificationDeps,
  n: TemplateNotification,
  now: string,
  correlationId?: string,
): Promise<NotificationOutcome> {
  const clients = [...new Set((await deps.records.listForTemplate(n.waba_id, n.template_id)).map((r) => r.client_id))];
  if (clients.length === 0) {
    deps.log.info('meta notification ignored: unknown template', { waba_id: n.waba_id, template_id: n.template_id, kind: n.kind });
    return 'ignored';
  }
  // Each client's records are their own write: a few clients at a time.
  const written = await inParallel(clients, CLIENTS_AT_ONCE, async (clientId) => {
    const { events } = await deps.records.reviseTemplate(
      { wabaId: n.waba_id, templateId: n.template_id, clientId },
      (records: TemplateRecord[]) => {
        const first = oldestRecord(records);
        // Meta does not promise order: news older than what the records took already is dropped.
        if ((first.notified_at?.[n.kind] ?? 0) > n.at) return null;
        const meta = notifiedTemplate(first.meta_template, n);
        if (!meta) return null;
        const notified_at = { ...first.notified_at, [n.kind]: n.at };
        const statusChanged = meta.status !== first.meta_template.status;
        return {
          meta,
          notified_at,
          events: statusChanged
            ? [templateEvent('template.status_changed', { ...first, meta_template: meta, notified_at }, now, correlationId)]
            : [],
        };
      },
      now,
      'webhook',
    );
    return events;
  });
  const events = written.flat();
  if (events.length > 0) await publishSaved(deps, events);
  return 'applied';
}

/**
 * Who a status prices (decisions §28): the recipient's digits, else its BSUID (`recipient_user_id`, where the
 * status carries one: the market of its prefix).
 */
const pricedPerson = (n: { recipient?: string }) => n.recipient || (n as { recipient_user_id?: string }).recipient_user_id || n.recipient;

/**
 * Message statuses counted on the sends they belong to, found by the reference each message carried: the
 * statuses of one send are applied together, so its counts take one write per batch, not one per status.
 */
async function applyToSends(
  deps: ApplyNotificationDeps,
  statuses: { at: number; n: Extract<MetaNotification, { kind: 'message_status' }> }[],
  outcomes: NotificationOutcome[],
) {
  const bySend = new Map<string, { at: number; n: (typeof statuses)[number]['n']; block: number; index: number }[]>();
  for (const { at, n } of statuses) {
    const reference = parseMessageReference(n.reference);
    if (!reference) {
      deps.log.info('meta notification ignored: a message not sent by this service', { message_id: n.message_id });
      outcomes[at] = 'ignored';
      continue;
    }
    const group = bySend.get(reference.sendId) ?? [];
    group.push({ at, n, block: reference.block, index: reference.index });
    bySend.set(reference.sendId, group);
  }
  for (const [sendId, group] of bySend) {
    const priced = group.filter(({ n }) => n.pricing && pricedPerson(n) !== undefined);
    const account = await deps.deliveryStatuses.accountOf(sendId);
    const price = await chargerFor(
      deps,
      { wabaId: group[0].n.waba_id, clientId: account?.client_id },
      priced.map(({ n }) => n.at),
    );
    // Each message's part of its send's reservation, given back when it settles (decisions §27).
    const reservation = account?.reservation;
    const reservedOf = (recipient?: string) =>
      reservation && recipient !== undefined
        ? { reserved: { month: reservation.month, micros: recipientEstimate(reservation, recipient) } }
        : {};
    const results = await deps.deliveryStatuses.applyDeliveries(
      sendId,
      group.map(({ n, block, index }) => {
        // The day and price are the status's: a billable message costs the card's price on the day it is delivered.
        const person = pricedPerson(n);
        const status = n.pricing && person !== undefined ? price(n.pricing, person, n.at) : undefined;
        return {
          block,
          index,
          messageId: n.message_id,
          change: (state) => withUsername(deliveryChange(state, n.status, n.error, status?.charge), state, n.username),
          ...(status && { chargedAt: n.at }),
          ...(status?.tierVolume && { tierVolume: status.tierVolume }),
          ...reservedOf(person),
        };
      }),
      group[0].n.waba_id,
    );
    results.forEach((result, i) => {
      if (result === 'unknown')
        deps.log.info('meta notification ignored: no such message of the send', { send_id: sendId, message_id: group[i].n.message_id });
      outcomes[group[i].at] = result === 'unsettled' ? 'later' : result === 'unknown' ? 'ignored' : result;
    });
    // A person who stopped marketing from the business (131050, reported after acceptance) joins the client's list.
    const optedOut = group.filter(
      ({ n }, i) => results[i] === 'applied' && n.status === 'failed' && n.error?.code === '131050' && (n.recipient || n.recipient_user_id),
    );
    if (optedOut.length > 0) {
      const send = await deps.sends.get(sendId);
      if (send)
        for (const { n } of optedOut)
          await deps.suppressions.add(send.client_id, {
            ...(n.recipient ? { phone: n.recipient } : { user_id: n.recipient_user_id }),
            source: '131050',
            at: new Date(n.at).toISOString(),
            message_id: n.message_id,
          });
    }
  }
}

/**
 * Notifications of one batch, each with the id of the request that brought it (and the log of its message,
 * for what is about it alone); outcomes in their order.
 */
export async function applyNotifications(
  deps: ApplyNotificationDeps,
  batch: { notification: MetaNotification; correlationId?: string; log?: Log }[],
  now = new Date().toISOString(),
): Promise<NotificationOutcome[]> {
  const outcomes: NotificationOutcome[] = new Array(batch.length);
  const statuses: { at: number; n: Extract<MetaNotification, { kind: 'message_status' }> }[] = [];
  // Who is who, first: one learn for the batch (decisions §28), so its opt-outs find the pairs it shows.
  await learnPeople(
    deps,
    batch.flatMap(({ notification }) => pairsOf(notification)),
  );
  for (const [at, { notification: n, correlationId, log }] of batch.entries()) {
    const own = { ...deps, log: log ?? deps.log };
    if (n.kind === 'message_status') statuses.push({ at, n });
    else if (n.kind === 'people_seen') outcomes[at] = 'applied';
    else if (n.kind === 'identity_move') outcomes[at] = await applyIdentityMove(own, n);
    else if (n.kind === 'marketing_preference') outcomes[at] = await applyPreference(own, n);
    else if (n.kind === 'number_quality') outcomes[at] = await applyToNumber(own, n);
    else if (n.kind === 'inbound_message') outcomes[at] = await applyInbound(own, n);
    else if (n.kind === 'pricing_tier') outcomes[at] = await reachedTier(own, n);
    else if (n.kind === 'mm_onboarded') outcomes[at] = await onboardedByMeta(own, n.waba_id, n.at);
    else {
      if (n.kind === 'template_status') await applyPause(own, n, Date.parse(now));
      outcomes[at] = await applyToTemplate(own, n, now, correlationId);
    }
  }
  await applyToSends(deps, statuses, outcomes);
  return outcomes;
}

/**
 * A person's message to one of the numbers: an opt-out keyword puts them on the suppression list of the client
 * whose number it reached, an opt-in keyword takes them off (decisions §25). A number no client has is ignored.
 */
async function applyInbound(
  deps: ApplyNotificationDeps,
  n: Extract<MetaNotification, { kind: 'inbound_message' }>,
): Promise<NotificationOutcome> {
  const channel = await deps.directory.getChannel(n.number_digits);
  if (!channel || channel.deleted) {
    deps.log.info('inbound message ignored: a number no client has', { waba_id: n.waba_id });
    return 'ignored';
  }
  const consent = await applyInboundConsent(deps, channel.client_id, {
    ...(n.from && { from: n.from }),
    ...(n.user_id && { user_id: n.user_id }),
    waba_id: n.waba_id,
    text: n.text,
    id: n.message_id,
    at: new Date(n.at).toISOString(),
  });
  if (consent) deps.log.info('consent from an inbound message', { client_id: channel.client_id, consent });
  return consent ? 'applied' : 'unchanged';
}

/** The pairs of phone number and BSUID a notification shows (decisions §28). */
function pairsOf(n: MetaNotification): SeenPair[] {
  if (n.kind === 'people_seen') return n.people.map((p) => ({ ...p, waba_id: n.waba_id, at: n.at }));
  const [phone, userId] =
    n.kind === 'message_status' ? [n.recipient, n.recipient_user_id] : n.kind === 'inbound_message' ? [n.from, n.user_id] : [];
  if (!phone || !userId || !n.waba_id) return [];
  return [{ waba_id: n.waba_id, phone, user_id: userId, ...('username' in n && n.username && { username: n.username }), at: n.at }];
}

/** Meta's template statuses that pause, disable or let a template go (decisions §25). */
const PAUSE_EVENTS: Record<string, 'paused' | 'resumed' | 'disabled' | undefined> = {
  PAUSED: 'paused',
  DISABLED: 'disabled',
  APPROVED: 'resumed',
  REINSTATED: 'resumed',
  UNPAUSE: 'resumed',
};

/**
 * Meta paused, disabled or let a template go again (decisions §25): its sends wait, fail the rest (132016), or
 * go on, as the dispatcher reads it. Events compare Meta's times: a `PAUSED` older than the resume that followed
 * it changes nothing, nor does a resume older than the pause in force. A template no longer paused after a resume
 * or a disablement wakes the jobs asleep on it, on every delivery of the event (a retry wakes what a failed one left).
 */
async function applyPause(deps: ApplyNotificationDeps, n: Extract<MetaNotification, { kind: 'template_status' }>, nowMs: number) {
  const event = PAUSE_EVENTS[n.event];
  if (!deps.pauses || !event) return;
  const pause = await deps.pauses.notified(n.waba_id, n.template_id, { kind: 'event', event, at_ms: n.at });
  if (event !== 'paused' && pause?.state !== 'paused' && deps.waking) await wakePausedJobs({ ...deps.waking, log: deps.log }, n, nowMs);
}

/** Meta says a number's quality or throughput changed: its level is asked again at its next use (decisions §19). */
async function applyToNumber(
  deps: ApplyNotificationDeps,
  n: Extract<MetaNotification, { kind: 'number_quality' }>,
): Promise<NotificationOutcome> {
  await deps.levels.forget(n.number_digits);
  deps.log.info('throughput level to be asked again', { event: n.event });
  return 'applied';
}

export async function applyNotification(
  deps: ApplyNotificationDeps,
  n: MetaNotification,
  now = new Date().toISOString(),
  correlationId?: string,
) {
  const [outcome] = await applyNotifications(deps, [{ notification: n, correlationId }], now);
  return outcome;
}

/** A record as a revision leaves it: the new template (and header type), when it took the news. */
export function revisedRecord(r: TemplateRecord, revision: TemplateRevision, now: string, source: 'sync' | 'webhook'): TemplateRecord {
  return {
    ...r,
    meta_template: revision.meta,
    headerType: headerTypeOf(revision.meta.components),
    ...(revision.notified_at && { notified_at: revision.notified_at }),
    syncMeta: { synced_at: now, source },
    updated_at: now,
  };
}
