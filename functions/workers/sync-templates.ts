import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { DynamoSyncLeaseStore } from '#lib/adapters/dynamo/lease-store.ts';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/outbox-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { runSync, type SyncJob } from '#lib/domain/sync.ts';
import { logger, workLogger } from '#lib/log/logger.ts';
import { countMetrics } from '#lib/log/metrics.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';

/** Consumes sync jobs one at a time; a failed job comes back after the queue's visibility timeout. */
const processor = new BatchProcessor(EventType.SQS);
const stores = {
  directory: new DynamoDirectoryStore(),
  records: new DynamoTemplateRecordStore(),
  leases: new DynamoSyncLeaseStore(),
  outbox: new DynamoOutboxStore(),
  publisher: new EventBridgePublisher(),
  log: logger,
};

async function sync(record: SQSRecord, context: Context) {
  const job = JSON.parse(record.body) as SyncJob;
  // Every line of the run names the POST that started it.
  const log = workLogger(
    { request_id: context.awsRequestId, correlation_id: job.request_id ?? job.lease_id, client_id: job.client_id },
    context,
  );
  const run = await runSync({ ...stores, log, upstream: graphUpstream() }, job);
  if ('result' in run) countMetrics({ SyncRuns: 1, SyncRunsFailed: run.result === 'failed' ? 1 : 0 });
}

export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, (record: SQSRecord) => sync(record, context), processor, { context });
