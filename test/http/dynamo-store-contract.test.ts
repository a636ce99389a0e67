import { DynamoBudgetStore } from '#lib/adapters/dynamo/budget-store.ts';
import { DynamoSuppressionStore } from '#lib/adapters/dynamo/suppression-store.ts';
import { DynamoTemplatePauses } from '#lib/adapters/dynamo/template-pauses.ts';
import { budgetStoreContract, suppressionStoreContract, templatePausesContract } from '../support/cost-and-consent-contracts.ts';
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
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

templateRecordStoreContract('DynamoDB', () => {
  useStackTable();
  return new DynamoTemplateRecordStore(table);
});
syncLeaseStoreContract('DynamoDB', () => {
  useStackTable();
  return new DynamoSyncLeaseStore(table);
});
deliveryLogContract('DynamoDB', () => {
  useStackTable();
  return new DynamoDeliveryLog(table);
});
sendStoreContract('DynamoDB', () => {
  useStackTable();
  return new DynamoSendStore(table);
});
pacerContract('DynamoDB', () => {
  useStackTable();
  return new DynamoPacer(table);
});
budgetStoreContract('DynamoDB', () => {
  useStackTable();
  return new DynamoBudgetStore(table);
});
suppressionStoreContract('DynamoDB', () => {
  useStackTable();
  return new DynamoSuppressionStore(table);
});
templatePausesContract('DynamoDB', () => {
  useStackTable();
  return new DynamoTemplatePauses(table);
});
