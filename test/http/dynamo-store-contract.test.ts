import { DynamoIdentityMap } from '#lib/adapters/dynamo/identity-map.ts';
import { identityMapContract } from '../support/identity-contract.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/price-list-store.ts';
import { DynamoReconciliationStore } from '#lib/adapters/dynamo/reconciliation-store.ts';
import { DynamoWebhookConfigStore } from '#lib/adapters/dynamo/webhook-store.ts';
import { DynamoThroughputStore } from '#lib/adapters/dynamo/throughput-store.ts';
import { marketingOnboardingsContract, throughputStoreContract, webhookConfigStoreContract } from '../support/config-store-contracts.ts';
import { DynamoMarketingOnboardings } from '#lib/adapters/dynamo/marketing-onboardings.ts';
import { DynamoBudgetStore } from '#lib/adapters/dynamo/budget-store.ts';
import { DynamoSuppressionStore } from '#lib/adapters/dynamo/suppression-store.ts';
import { DynamoTemplatePauses } from '#lib/adapters/dynamo/template-pauses.ts';
import { DynamoPausedJobs } from '#lib/adapters/dynamo/paused-jobs.ts';
import {
  budgetStoreContract,
  priceListContract,
  reconciliationStoreContract,
  suppressionStoreContract,
  pausedJobsContract,
  templatePausesContract,
} from '../support/cost-and-consent-contracts.ts';
import { DynamoDeliveryLog } from '#lib/adapters/dynamo/delivery-log.ts';
import { DynamoPacer } from '#lib/adapters/dynamo/pacer.ts';
import { DynamoSyncLeaseStore } from '#lib/adapters/dynamo/lease-store.ts';
import { DynamoSendStore } from '#lib/adapters/dynamo/send-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { useStackTable } from '../support/seed.ts';
import {
  deliveryLogContract,
  pacerContract,
  sendStoreContract,
  syncLeaseStoreContract,
  templateRecordStoreContract,
} from '../support/store-contract.ts';
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

templateRecordStoreContract('DynamoDB', onStackTable(DynamoTemplateRecordStore));
syncLeaseStoreContract('DynamoDB', onStackTable(DynamoSyncLeaseStore));
deliveryLogContract('DynamoDB', onStackTable(DynamoDeliveryLog));
sendStoreContract('DynamoDB', onStackTable(DynamoSendStore));
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
identityMapContract('DynamoDB', onStackTable(DynamoIdentityMap));
