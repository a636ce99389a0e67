import type { ServiceTable } from '#lib/adapters/dynamo/client.ts';
import { DynamoBudgetStore } from '#lib/adapters/dynamo/money/budget-store.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { DynamoFrequencyCaps, DynamoMarketingCounts } from '#lib/adapters/dynamo/people/frequency-caps.ts';
import { DynamoPeopleMap } from '#lib/adapters/dynamo/people/people-map.ts';
import { DynamoSuppressionStore } from '#lib/adapters/dynamo/people/suppression-store.ts';
import { DynamoHeldJobs } from '#lib/adapters/dynamo/sends/held-jobs.ts';
import { DynamoMarketingOnboardings } from '#lib/adapters/dynamo/sends/marketing-onboardings.ts';
import { DynamoRecipientLists } from '#lib/adapters/dynamo/sends/recipient-lists.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoTemplateListing } from '#lib/adapters/dynamo/templates/template-listing.ts';
import type { GraphUpstream } from '#lib/adapters/graph/graph-upstream.ts';
import { resolveHost } from '#lib/adapters/https/resolve-host.ts';
import type { SendDeps } from '#lib/domain/sends/accept/send-deps.ts';
import type { AcceptDeps } from '#lib/domain/sends/accept/send.ts';
import { DynamoReservationReturns } from '#lib/adapters/dynamo/sends/reservation-returns.ts';
import { DynamoReservationWatches } from '#lib/adapters/dynamo/sends/reservation-watches.ts';
import type { JobQueue } from '#lib/domain/shared/ports.ts';
import { jobQueue } from './queues.ts';
import { lazySendScheduler, lazyTestSchedules } from './scheduler.ts';
import { graphUpstream } from './upstream.ts';

/**
 * A send's dependencies, wired once for every composition root that accepts, dry-runs or resends a send: the
 * table's stores, the dispatch queue, the scheduler and Graph. Graph is made at first use (a bundle loads before
 * its settings are read); the bench hands in its own queue and Graph.
 */
export function sendDeps(table: ServiceTable, parts: { queue?: JobQueue; upstream?: () => GraphUpstream } = {}): SendDeps {
  const upstream = parts.upstream ?? graphUpstream;
  return {
    directory: new DynamoDirectoryStore(table),
    listing: new DynamoTemplateListing(table),
    sends: new DynamoSendRecords(table),
    recipientLists: new DynamoRecipientLists(table),
    heldJobs: new DynamoHeldJobs(table),
    budgets: new DynamoBudgetStore(table),
    priceLists: new DynamoPriceListStore(table),
    suppressions: new DynamoSuppressionStore(table),
    peopleMap: new DynamoPeopleMap(table),
    frequencyCaps: new DynamoFrequencyCaps(table),
    marketingCounts: new DynamoMarketingCounts(table),
    onboardings: new DynamoMarketingOnboardings(table),
    queue: parts.queue ?? jobQueue('dispatch'),
    resolve: resolveHost,
    scheduler: lazySendScheduler,
    // Graph answers for the templates, the WABA's billing currency and its onboarding to the MM API.
    get upstream() {
      return upstream();
    },
    get currencies() {
      return upstream();
    },
    get marketing() {
      return upstream();
    },
    get directSend() {
      return upstream();
    },
  };
}

/** A send's dependencies and where a failed acceptance's reservation comes back once (decisions §30). */
export function acceptDeps(table: ServiceTable, parts: Parameters<typeof sendDeps>[1] = {}): AcceptDeps {
  // Object.assign, not a spread: sendDeps makes Graph at first use, which a spread would do now.
  return Object.assign(sendDeps(table, parts), {
    reservationReturns: new DynamoReservationReturns(table),
    reservationWatches: new DynamoReservationWatches(table),
    testSchedules: lazyTestSchedules,
  });
}
