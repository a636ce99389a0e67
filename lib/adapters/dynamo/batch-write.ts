import { BatchWriteCommand, type BatchWriteCommandInput, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { ServiceTable } from './client.ts';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** DynamoDB's limit of requests in one BatchWriteItem, and how often what it leaves unprocessed is sent again. */
const BATCH_WRITE_LIMIT = 25;
const UNPROCESSED_RETRIES = 8;

/**
 * Puts and deletes by key in batches of 25; what DynamoDB leaves unprocessed is sent again with backoff until
 * written, else the call fails naming how many stayed.
 */
export async function writeAll(table: ServiceTable, requests: WriteRequest[]) {
  for (let i = 0; i < requests.length; i += BATCH_WRITE_LIMIT) {
    let pending: WriteRequest[] | undefined = requests.slice(i, i + BATCH_WRITE_LIMIT);
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt > UNPROCESSED_RETRIES) throw new Error(`DynamoDB left ${pending.length} writes unprocessed`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const result: BatchWriteCommandOutput = await table.client.send(new BatchWriteCommand({ RequestItems: { [table.name]: pending } }));
      pending = result.UnprocessedItems?.[table.name];
    }
  }
}

/** Puts items by key (see writeAll). */
export const putAll = (table: ServiceTable, items: Record<string, unknown>[]) =>
  writeAll(
    table,
    items.map((Item) => ({ PutRequest: { Item } })),
  );
