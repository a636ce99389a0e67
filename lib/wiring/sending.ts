import { DynamoBudgetStore } from '#lib/adapters/dynamo/money/budget-store.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import type { ServiceTable } from '#lib/adapters/dynamo/client.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoMarketingOnboardings } from '#lib/adapters/dynamo/sends/marketing-onboardings.ts';
import { DynamoHeldJobs } from '#lib/adapters/dynamo/sends/held-jobs.ts';
import { DynamoRecipientLists } from '#lib/adapters/dynamo/sends/recipient-lists.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { DynamoSuppressionStore } from '#lib/adapters/dynamo/people/suppression-store.ts';
import { DynamoIdentityMap } from '#lib/adapters/dynamo/people/people-map.ts';
import { DynamoTemplateListing } from '#lib/adapters/dynamo/templates/template-listing.ts';
import { resolveHost } from '#lib/adapters/https/resolve-host.ts';
import { jobQueue } from './queues.ts';
import { lazySendScheduler } from './scheduler.ts';

/** What accepting a send needs on the table and the queue (the send and its resend): the upstream comes apart. */
export function sendStores(table: ServiceTable) {
  return {
    directory: new DynamoDirectoryStore(table),
    listing: new DynamoTemplateListing(table),
    sends: new DynamoSendRecords(table),
    recipientLists: new DynamoRecipientLists(table),
    heldJobs: new DynamoHeldJobs(table),
    budgets: new DynamoBudgetStore(table),
    priceLists: new DynamoPriceListStore(table),
    suppressions: new DynamoSuppressionStore(table),
    identities: new DynamoIdentityMap(table),
    queue: jobQueue('dispatch'),
    resolve: resolveHost,
    scheduler: lazySendScheduler,
    onboardings: new DynamoMarketingOnboardings(table),
  };
}
