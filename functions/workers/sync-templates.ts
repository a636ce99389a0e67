import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoSyncLeaseStore } from '#lib/adapters/dynamo/templates/lease-store.ts';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/webhooks/outbox-store.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { runSync, type SyncJob } from '#lib/domain/templates/sync.ts';
import { queueWorker } from '#lib/worker/queue-worker.ts';
import { SyncTemplatesWorker } from '#lib/manifest/workers.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/** Consumes sync jobs one at a time; a failed job comes back after the queue's visibility timeout. */
const stores = {
  directory: new DynamoDirectoryStore(table),
  records: new DynamoTemplateRecords(table),
  leases: new DynamoSyncLeaseStore(table),
  outbox: new DynamoOutboxStore(table),
  publisher: new EventBridgePublisher(),
};

export const handler = queueWorker<SyncJob>(
  SyncTemplatesWorker,
  async (job, { log }) => {
    const run = await runSync({ ...stores, log, upstream: graphUpstream() }, job);
    if ('result' in run) return { metrics: { SyncRuns: 1, SyncRunsFailed: run.result === 'failed' ? 1 : 0 } };
  },
  // Every line of the run names the POST that started it.
  { keysOf: (job) => ({ correlation_id: job.request_id ?? job.lease_id, client_id: job.client_id }) },
);
