import type { BillingCurrencies, PriceLists, VolumeTiers } from '../money/ports.ts';
import type { PeopleMap, SuppressionStore } from '../people/ports.ts';
import type { JobWaker, PausedJobs, ThroughputStore } from '../sends/dispatch/ports.ts';
import type { MessageStatuses, MarketingOnboardings, SendRecords } from '../sends/ports.ts';
import type { Replies } from '../sends/performance/ports.ts';
import type { Log } from '../shared/log.ts';
import type { DirectoryStore, JobQueue } from '../shared/ports.ts';
import type { TemplatePauses, TemplateRecords } from '../templates/ports.ts';
import type { EventPublisher, OutboxStore } from '../webhooks/ports.ts';
import { type NotificationPorts, notificationRoutes } from './notification-handlers.ts';
import { type RoutedNotification, routeNotifications } from './notification-routes.ts';
import type { MetaNotification, NotificationOutcome, NotifiedChange } from './notifications.ts';
import type { StatusStream } from './ports.ts';

/**
 * The changes as the endpoint accepted them: message statuses (a change with its `stream_key`) on the statuses'
 * stream, the rest queued, one job per change (issue 54); answered once both hold them.
 */
export async function acceptNotification(
  deps: { queue: JobQueue; statuses: StatusStream; log: Log },
  changes: NotifiedChange[],
  requestId?: string,
) {
  const jobs = changes.map((change) => ({ ...change, ...(requestId && { correlation_id: requestId }) }));
  const streamed = jobs.filter((job) => job.stream_key !== undefined);
  const queued = jobs.filter((job) => job.stream_key === undefined);
  await Promise.all([
    streamed.length > 0 && deps.statuses.put(streamed),
    queued.length > 0 && deps.queue.send(queued as unknown as Record<string, unknown>[]),
  ]);
  // At DEBUG: the request's own line says it was answered, and the intake takes 300,000 a second (docs/high-tier.md §5).
  deps.log.debug('meta notification accepted', {
    changes: changes.length,
    statuses: streamed.length,
    fields: [...new Set(changes.map((c) => c.field))],
  });
  return { success: true as const, changes: changes.length };
}

/**
 * Every port the handlers use, in one object (as the tests' world and the bench hold them). Those a handler can
 * go without are optional here: without them, their kinds are ignored as NotificationPorts says.
 */
export interface ApplyNotificationDeps {
  records: Pick<TemplateRecords, 'listForTemplate' | 'reviseTemplate'>;
  messageStatuses: MessageStatuses;
  sends: Pick<SendRecords, 'get'>;
  suppressions: SuppressionStore;
  peopleMap?: PeopleMap;
  directory: Pick<DirectoryStore, 'getChannel' | 'getWaba'>;
  pauses?: TemplatePauses;
  waking?: { pausedJobs: PausedJobs; waker: JobWaker };
  levels: Pick<ThroughputStore, 'forget'>;
  outbox: OutboxStore;
  publisher: EventPublisher;
  currencies?: BillingCurrencies;
  tiers?: VolumeTiers;
  priceLists?: Pick<PriceLists, 'lists'>;
  onboardings?: MarketingOnboardings;
  /** The sends' messages by person, for replies (decisions §33); undefined, replies are not counted. */
  replies?: Replies;
  log: Log;
}

/** The handlers' ports, grouped out of one object. */
function portsOf(deps: ApplyNotificationDeps): NotificationPorts {
  const { records, messageStatuses, sends, suppressions, peopleMap, directory, pauses, waking, tiers, onboardings } = deps;
  return {
    statuses: { messageStatuses, sends, suppressions, currencies: deps.currencies, tiers, priceLists: deps.priceLists },
    templates: { records, outbox: deps.outbox, publisher: deps.publisher },
    pausing: pauses && waking ? { pauses, waking } : undefined,
    numbers: { levels: deps.levels },
    consent: { suppressions, peopleMap, directory },
    peopleMap: peopleMap && { peopleMap, directory },
    pricing: { tiers },
    marketing: onboardings && { onboardings },
    ...(deps.replies && { replies: { replies: deps.replies, currencies: deps.currencies } }),
    log: deps.log,
  };
}

/**
 * Notifications of one batch, each with the id of the request that brought it (and the log of its message,
 * for what is about it alone); outcomes in their order.
 */
export function applyNotifications(deps: ApplyNotificationDeps, batch: RoutedNotification[], now = new Date().toISOString()) {
  return routeNotifications(notificationRoutes(portsOf(deps)), batch, now);
}

export async function applyNotification(
  deps: ApplyNotificationDeps,
  n: MetaNotification,
  now = new Date().toISOString(),
  correlationId?: string,
): Promise<NotificationOutcome> {
  const [outcome] = await applyNotifications(deps, [{ notification: n, correlationId }], now);
  return outcome;
}
