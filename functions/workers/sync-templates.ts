import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { directory, graph, outbox, publisher, syncLeases, templateRecords } from '#lib/deps.ts';
import { runSync } from '#lib/domain/sync.ts';

/** Consumes sync jobs one at a time; a failed job comes back after the queue's visibility timeout. */
const processor = new BatchProcessor(EventType.SQS);

async function sync(record: SQSRecord) {
  const job = JSON.parse(record.body) as { client_id: number; lease_id: string };
  await runSync({ directory, records: templateRecords, leases: syncLeases, outbox, publisher, upstream: graph() }, job);
}

export const handler = async (event: SQSEvent, context: Context) => processPartialResponse(event, sync, processor, { context });
