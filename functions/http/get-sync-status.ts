import { DynamoSyncLeaseStore } from '#lib/adapters/dynamo/templates/lease-store.ts';
import { syncStatus } from '#lib/domain/templates/sync.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetSyncStatus } from '#lib/manifest/routes/templates.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = { leases: new DynamoSyncLeaseStore(table) };

export const handler = httpFunction(GetSyncStatus, ({ query, caller }) => syncStatus(stores, caller, query));
