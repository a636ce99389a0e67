import { DynamoBudgetStore } from '#lib/adapters/dynamo/money/budget-store.ts';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/webhooks/outbox-store.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoMarketingOnboardings } from '#lib/adapters/dynamo/sends/marketing-onboardings.ts';
import { DynamoPausedJobs } from '#lib/adapters/dynamo/sends/paused-jobs.ts';
import { DynamoTemplatePauses } from '#lib/adapters/dynamo/templates/template-pauses.ts';
import { DynamoSuppressionStore } from '#lib/adapters/dynamo/people/suppression-store.ts';
import { DynamoPeopleMap } from '#lib/adapters/dynamo/people/people-map.ts';
import { DynamoMessageStatuses } from '#lib/adapters/dynamo/sends/message-statuses.ts';
import { DynamoReplies } from '#lib/adapters/dynamo/sends/replies.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import { DynamoThroughputStore } from '#lib/adapters/dynamo/sends/throughput-store.ts';
import { DynamoVolumeTiers } from '#lib/adapters/dynamo/money/volume-tiers.ts';
import { DynamoPriceListStore, KeptPriceLists } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { DynamoKnownCurrencies } from '#lib/adapters/dynamo/money/known-currencies.ts';
import { DynamoOutsideCharges } from '#lib/adapters/dynamo/money/outside-charges.ts';
import { KeptBillingCurrencies } from '#lib/domain/money/billing-currencies.ts';
import { logger } from '#lib/log/logger.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { SqsJobWaker } from '#lib/adapters/sqs/job-waker.ts';
import { notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';
import type { NotifiedChange } from '#lib/domain/inbound/notifications.ts';
import { type NotificationPorts, notificationRoutes } from '#lib/domain/inbound/notification-handlers.ts';
import { routeNotifications } from '#lib/domain/inbound/notification-routes.ts';
import type { Log } from '#lib/domain/shared/log.ts';
import { serviceQueue } from './queues.ts';
import { serviceTable } from './table.ts';
import { graphUpstream } from './upstream.ts';

/**
 * The ports Meta's notifications are applied with, one group a handler (the log is each invocation's): what the
 * notifications worker and the statuses' stream worker share (issue 54), made once a process.
 */
export function notificationPorts(): Omit<NotificationPorts, 'log'> {
  held ??= portsOf();
  return held;
}
let held: Omit<NotificationPorts, 'log'> | undefined;

function portsOf(): Omit<NotificationPorts, 'log'> {
  const table = serviceTable();

  const suppressions = new DynamoSuppressionStore(table);
  const peopleMap = new DynamoPeopleMap(table);
  const directory = new DynamoDirectoryStore(table);
  // Tiers count per business portfolio: the directory names a WABA's (decisions §31).
  const tiers = new DynamoVolumeTiers(table, directory);
  // The currency kept in the table: applying statuses never waits on Graph (decisions §30).
  const currencies = new KeptBillingCurrencies({ known: new DynamoKnownCurrencies(table), upstream: graphUpstream(), log: logger });
  return {
    statuses: {
      messageStatuses: new DynamoMessageStatuses(table),
      sends: new DynamoSendRecords(table),
      suppressions,
      currencies,
      tiers,
      priceLists: new KeptPriceLists(new DynamoPriceListStore(table)),
      budgets: new DynamoBudgetStore(table),
      outside: { outsideCharges: new DynamoOutsideCharges(table), directory },
      // A client's set billing timezone: its charges are late by it (decisions §31).
      clients: directory,
    },
    templates: { records: new DynamoTemplateRecords(table), outbox: new DynamoOutboxStore(table), publisher: new EventBridgePublisher() },
    // Meta's resume wakes the dispatch jobs asleep on the template (decisions §25).
    pausing: {
      pauses: new DynamoTemplatePauses(table),
      waking: { pausedJobs: new DynamoPausedJobs(table), waker: new SqsJobWaker(serviceQueue('dispatch')) },
    },
    numbers: { levels: new DynamoThroughputStore(table) },
    consent: { suppressions, peopleMap, directory },
    peopleMap: { peopleMap, directory },
    pricing: { tiers },
    marketing: { onboardings: new DynamoMarketingOnboardings(table) },
    // Replies to the sends' messages, counted on the WABA's days (decisions §33).
    replies: { replies: new DynamoReplies(table), currencies },
  };
}

/**
 * When a status that overtook its block comes back: after 2 s, doubling to at most a minute, so the queue's 10
 * receives wait about 5 minutes in all, past any block's settlement (its answers take at most
 * GRAPH_MESSAGE_TIMEOUT_MS each), where a fixed 2 s gave a slow block only 20 s before its statuses went to the
 * dead-letter queue.
 */
export const unsettledRetrySeconds = (receive: number) => Math.min(60, 2 * 2 ** (receive - 1));

/**
 * A batch of changes applied at once, as both workers apply them (the statuses of one send in one write a batch,
 * decisions §19): each change's notifications, and how many of them overtook their block and must come back.
 */
export async function applyChanges(records: { message: NotifiedChange; log: Log }[]) {
  const batch = records.flatMap(({ message, log }, record) => {
    const notifications = notificationsOf(message);
    if (notifications.length === 0) log.warn('meta notification not understood; ignored', { field: message.field });
    return notifications.map((notification) => ({ record, notification, correlationId: message.correlation_id, log }));
  });
  const tallies = records.map(() => ({ notifications: 0, later: 0 }));
  if (batch.length === 0) return tallies;
  const outcomes = await routeNotifications(notificationRoutes({ ...notificationPorts(), log: batch[0].log }), batch);
  for (const [i, { record }] of batch.entries()) {
    tallies[record].notifications += 1;
    if (outcomes[i] === 'later') tallies[record].later += 1;
  }
  return tallies;
}
