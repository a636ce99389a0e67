import type { Log } from '../shared/log.ts';
import { inParallel } from '../shared/parallel.ts';
import { publishSaved } from '../webhooks/outbox.ts';
import type { EventPublisher, OutboxStore } from '../webhooks/ports.ts';
import type { TemplatePauses, TemplateRecords, TemplateRevision } from './ports.ts';
import { type CategoryNotification, categoryChangeOf, categoryEventOf, sameCategoryChange } from './category-changes.ts';
import { templateEvent } from './template-events.ts';
import { oldestRecord } from './template-listing.ts';
import { headerTypeOf, type MetaTemplate, type PauseSummary, type TemplateRecord } from './template-record.ts';

/**
 * What Meta's template webhooks say (decisions §13, §25): a template's new status, category or quality, applied
 * to the records of every client sharing the WABA, and the pauses a status starts or ends.
 */
export type TemplateNotification =
  | {
      kind: 'template_status';
      waba_id: string;
      template_id: string;
      at: number;
      event: string;
      reason?: string | null;
      /** Meta's `other_info.title` (`FIRST_PAUSE`, `RATE_LIMITING_PAUSE`, …), when it gave one. */
      title?: string;
      /** The template's pauses after the event (decisions §34), when the service keeps them: written on the records. */
      pauses?: PauseSummary;
    }
  | CategoryNotification
  | { kind: 'template_quality'; waba_id: string; template_id: string; at: number; new_quality: string };

export type TemplateStatusNotification = Extract<TemplateNotification, { kind: 'template_status' }>;

/** Clients whose records one template notification rewrites at once. */
const CLIENTS_AT_ONCE = 8;

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

export interface TemplateNotificationDeps {
  records: Pick<TemplateRecords, 'listForTemplate' | 'reviseTemplate'>;
  outbox: OutboxStore;
  publisher: EventPublisher;
  log: Log;
}

/**
 * One client's records as the notification leaves them, with that client's `template.status_changed` event
 * when the status changed, and its `template.category_changing` / `template.category_changed` event when Meta
 * announced or made a category change (decisions §34); null when they know as much already.
 */
function revisionOf(records: TemplateRecord[], n: TemplateNotification, now: string, correlationId?: string): TemplateRevision | null {
  const first = oldestRecord(records);
  // Meta does not promise order: news older than what the records took already is dropped.
  if ((first.notified_at?.[n.kind] ?? 0) > n.at) return null;
  const notified = notifiedTemplate(first.meta_template, n);
  const change = n.kind === 'template_category' ? categoryChangeOf(first.category_change, n) : first.category_change;
  const changeMoved = !sameCategoryChange(change, first.category_change);
  const pauses =
    n.kind === 'template_status' && n.pauses && JSON.stringify(n.pauses) !== JSON.stringify(first.pauses) ? n.pauses : undefined;
  if (!notified && !changeMoved && !pauses) return null;
  const meta = notified ?? first.meta_template;
  const notified_at = { ...first.notified_at, [n.kind]: n.at };
  const revised: TemplateRecord = {
    ...first,
    meta_template: meta,
    notified_at,
    ...(change && { category_change: change }),
    ...((pauses ?? first.pauses) && { pauses: pauses ?? first.pauses }),
  };
  const events = [];
  if (meta.status !== first.meta_template.status) events.push(templateEvent('template.status_changed', revised, now, correlationId));
  if (changeMoved && n.kind === 'template_category') events.push(templateEvent(categoryEventOf(n), revised, now, correlationId));
  return { meta, notified_at, ...(changeMoved && change && { category_change: change }), ...(pauses && { pauses }), events };
}

/**
 * A template notification reaches every record of the template, of every client sharing the WABA. Each client's
 * records change in one write with their events; a template no client has is ignored.
 */
export async function applyTemplateNotification(
  deps: TemplateNotificationDeps,
  n: TemplateNotification,
  now: string,
  correlationId?: string,
): Promise<'applied' | 'ignored'> {
  const clients = [...new Set((await deps.records.listForTemplate(n.waba_id, n.template_id)).map((r) => r.client_id))];
  if (clients.length === 0) {
    deps.log.info('meta notification ignored: unknown template', { waba_id: n.waba_id, template_id: n.template_id, kind: n.kind });
    return 'ignored';
  }
  // Each client's records are their own write: a few clients at a time.
  const written = await inParallel(clients, CLIENTS_AT_ONCE, async (clientId) => {
    const of = { wabaId: n.waba_id, templateId: n.template_id, clientId };
    const { events } = await deps.records.reviseTemplate(of, (records) => revisionOf(records, n, now, correlationId), now, 'webhook');
    return events;
  });
  const events = written.flat();
  if (events.length > 0) await publishSaved(deps, events);
  return 'applied';
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
 * Meta paused, disabled or let a template go again (decisions §25), kept as the dispatcher reads it. Events
 * compare Meta's times: a `PAUSED` older than the resume that followed it changes nothing, nor does a resume
 * older than the pause in force; a quality `PAUSED` after two pauses disables (decisions §34). Answers whether
 * the template is let go (resumed or disabled, and no pause in force), so the jobs asleep on it may wake, and
 * the notification as the records take it: with the template's pauses, and `DISABLED` where the count disabled
 * it; undefined for a status that is no pause event.
 */
export async function notifiedPause(
  deps: { pauses: TemplatePauses },
  n: TemplateStatusNotification,
): Promise<{ letGo: boolean; notification: TemplateStatusNotification } | undefined> {
  const event = PAUSE_EVENTS[n.event];
  if (!event) return undefined;
  const pacing = n.title === 'RATE_LIMITING_PAUSE';
  const pause = await deps.pauses.notified(n.waba_id, n.template_id, { kind: 'event', event, at_ms: n.at, ...(pacing && { pacing }) });
  const disabledByCount = event === 'paused' && pause?.state === 'disabled';
  const pauses = await deps.pauses.summary(n.waba_id, n.template_id);
  // A template never paused nor disabled shows no pauses: its records are left as they are.
  const shown = pauses.count > 0 || pauses.history.length > 0 || pauses.disabled_at !== undefined;
  return {
    letGo: disabledByCount || (event !== 'paused' && pause?.state !== 'paused'),
    notification: { ...n, ...(disabledByCount && { event: 'DISABLED' }), ...(shown && { pauses }) },
  };
}

/** A record as a revision leaves it: the new template (and header type), when it took the news. */
export function revisedRecord(r: TemplateRecord, revision: TemplateRevision, now: string, source: 'sync' | 'webhook'): TemplateRecord {
  return {
    ...r,
    meta_template: revision.meta,
    headerType: headerTypeOf(revision.meta.components),
    ...(revision.notified_at && { notified_at: revision.notified_at }),
    ...(revision.category_change && { category_change: revision.category_change }),
    ...(revision.pauses && { pauses: revision.pauses }),
    syncMeta: { synced_at: now, source },
    updated_at: now,
  };
}
