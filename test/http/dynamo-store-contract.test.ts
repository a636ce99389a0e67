import { DynamoPeopleMap } from '#lib/adapters/dynamo/people/people-map.ts';
import { peopleMapContract } from '../support/people-map-contract.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { DynamoReconciliationStore } from '#lib/adapters/dynamo/money/reconciliation-store.ts';
import { DynamoWebhookConfigStore } from '#lib/adapters/dynamo/webhooks/webhook-store.ts';
import { DynamoThroughputStore } from '#lib/adapters/dynamo/sends/throughput-store.ts';
import { marketingOnboardingsContract, throughputStoreContract, webhookConfigStoreContract } from '../support/config-store-contracts.ts';
import { DynamoMarketingOnboardings } from '#lib/adapters/dynamo/sends/marketing-onboardings.ts';
import { DynamoBudgetStore } from '#lib/adapters/dynamo/money/budget-store.ts';
import { DynamoSuppressionStore } from '#lib/adapters/dynamo/people/suppression-store.ts';
import { DynamoTemplatePauses } from '#lib/adapters/dynamo/templates/template-pauses.ts';
import { DynamoPausedJobs } from '#lib/adapters/dynamo/sends/paused-jobs.ts';
import {
  budgetStoreContract,
  priceListContract,
  reconciliationStoreContract,
  suppressionStoreContract,
  pausedJobsContract,
  templatePausesContract,
} from '../support/cost-and-consent-contracts.ts';
import { DynamoDeliveryLog } from '#lib/adapters/dynamo/webhooks/webhook-delivery-log.ts';
import { DynamoPacer } from '#lib/adapters/dynamo/sends/pacer.ts';
import { DynamoSyncLeaseStore } from '#lib/adapters/dynamo/templates/lease-store.ts';
import { DynamoBlockLedger } from '#lib/adapters/dynamo/sends/block-ledger.ts';
import { DynamoMessageStatuses } from '#lib/adapters/dynamo/sends/message-statuses.ts';
import { DynamoHeldJobs } from '#lib/adapters/dynamo/sends/held-jobs.ts';
import { DynamoRecipientLists } from '#lib/adapters/dynamo/sends/recipient-lists.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { DynamoTemplateAssignments } from '#lib/adapters/dynamo/templates/template-assignments.ts';
import { DynamoTemplateListing } from '#lib/adapters/dynamo/templates/template-listing.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import { useStackTable } from '../support/seed.ts';
import {
  deliveryLogContract,
  pacerContract,
  sendStoreContract,
  syncLeaseStoreContract,
  templateRecordStoreContract,
} from '../support/store-contract.ts';
import { abStoreContract } from '../support/ab-store-contract.ts';
import { DynamoTestDecisions } from '#lib/adapters/dynamo/sends/test-decisions.ts';
import type { ServiceTable } from '#lib/adapters/dynamo/client.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();
/** A store on the local stack's table, made once the table is the stack's (useStackTable). */
const onStackTable =
  <T>(Store: new (table: ServiceTable) => T) =>
  () => {
    useStackTable();
    return new Store(table);
  };

templateRecordStoreContract('DynamoDB', () => {
  useStackTable();
  return {
    records: new DynamoTemplateRecords(table),
    listing: new DynamoTemplateListing(table),
    assignments: new DynamoTemplateAssignments(table),
  };
});
syncLeaseStoreContract('DynamoDB', onStackTable(DynamoSyncLeaseStore));
deliveryLogContract('DynamoDB', onStackTable(DynamoDeliveryLog));
sendStoreContract('DynamoDB', () => {
  useStackTable();
  return {
    sends: new DynamoSendRecords(table),
    blocks: new DynamoBlockLedger(table),
    recipientLists: new DynamoRecipientLists(table),
    heldJobs: new DynamoHeldJobs(table),
    messageStatuses: new DynamoMessageStatuses(table),
  };
});
abStoreContract('DynamoDB', () => {
  useStackTable();
  return {
    sends: new DynamoSendRecords(table),
    decisions: new DynamoTestDecisions(table),
    recipientLists: new DynamoRecipientLists(table),
  };
});
pacerContract('DynamoDB', onStackTable(DynamoPacer));
budgetStoreContract('DynamoDB', onStackTable(DynamoBudgetStore));
suppressionStoreContract('DynamoDB', onStackTable(DynamoSuppressionStore));
templatePausesContract('DynamoDB', onStackTable(DynamoTemplatePauses));
pausedJobsContract('DynamoDB', onStackTable(DynamoPausedJobs));
webhookConfigStoreContract('DynamoDB', onStackTable(DynamoWebhookConfigStore));
throughputStoreContract('DynamoDB', onStackTable(DynamoThroughputStore));
marketingOnboardingsContract('DynamoDB', onStackTable(DynamoMarketingOnboardings));
reconciliationStoreContract('DynamoDB', onStackTable(DynamoReconciliationStore));
priceListContract('DynamoDB', onStackTable(DynamoPriceListStore));
peopleMapContract('DynamoDB', onStackTable(DynamoPeopleMap));
