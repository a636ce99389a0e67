import { DynamoSyncLeaseStore } from '#lib/adapters/dynamo/lease-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { useStackTable } from '../support/seed.ts';
import { syncLeaseStoreContract, templateRecordStoreContract } from '../support/store-contract.ts';

templateRecordStoreContract('DynamoDB', () => {
  useStackTable();
  return new DynamoTemplateRecordStore();
});
syncLeaseStoreContract('DynamoDB', () => {
  useStackTable();
  return new DynamoSyncLeaseStore();
});
