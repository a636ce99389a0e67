import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoSyncLeaseStore } from '#lib/adapters/dynamo/templates/lease-store.ts';
import { startSync } from '#lib/domain/templates/sync.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { SyncTemplates } from '#lib/manifest/routes/templates.ts';
import { jobQueue } from '#lib/wiring/queues.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = { directory: new DynamoDirectoryStore(table), leases: new DynamoSyncLeaseStore(table), queue: jobQueue('sync') };

export const handler = httpFunction(SyncTemplates, ({ body, caller, requestId }) =>
  startSync({ ...stores, upstream: graphUpstream() }, caller, body, requestId),
);
