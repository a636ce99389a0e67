import { DynamoSyncLeaseStore } from '#lib/adapters/dynamo/templates/lease-store.ts';
import { abandonSync, type SyncJob } from '#lib/domain/templates/sync.ts';
import { queueWorker } from '#lib/worker/queue-worker.ts';
import { AbandonSyncJobs } from '#lib/manifest/workers.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const leases = new DynamoSyncLeaseStore(serviceTable());

/** The sync dead-letter queue's consumer: each job there frees its lease and records its run failed. */
export const handler = queueWorker<SyncJob>(
  AbandonSyncJobs,
  async (job, { log }) => {
    await abandonSync({ leases, log }, job);
    return { metrics: { SyncRunsFailed: 1 } };
  },
  { keysOf: (job) => ({ correlation_id: job.request_id ?? job.lease_id, client_id: job.client_id }) },
);
