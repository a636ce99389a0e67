import { BatchWriteCommand, type BatchWriteCommandOutput, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys, OUTBOX_PARTITION, SORT } from '#lib/adapters/dynamo/table.ts';
import type { ServiceEvent } from '#lib/domain/events.ts';
import type { OutboxStore } from '#lib/domain/ports.ts';
import { dynamo, tableName } from './client.ts';

/** BatchWriteItem takes at most 25 requests a call. */
const BATCH_WRITE_LIMIT = 25;
/** Retries of the requests DynamoDB left unprocessed (throttling), with exponential backoff. */
const UNPROCESSED_RETRIES = 8;

export class DynamoOutboxStore implements OutboxStore {
  /** The oldest `limit` events: one page of the outbox index, never the whole backlog. */
  async pending(olderThanIso: string, limit: number) {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :p AND gsi1sk < :t',
        ExpressionAttributeValues: { ':p': OUTBOX_PARTITION, ':t': olderThanIso },
        Limit: limit,
      }),
    );
    return (page.Items ?? []).map((item) => item.event as ServiceEvent);
  }

  /** Deletes in batches; what DynamoDB leaves unprocessed is retried until written, else the call fails. */
  async remove(ids: string[]) {
    for (let i = 0; i < ids.length; i += BATCH_WRITE_LIMIT) {
      let requests: NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']>[string] | undefined = ids
        .slice(i, i + BATCH_WRITE_LIMIT)
        .map((id) => ({ DeleteRequest: { Key: { pk: keys.outbox(id), sk: SORT.outbox } } }));
      for (let attempt = 0; requests?.length; attempt++) {
        if (attempt > UNPROCESSED_RETRIES) throw new Error(`Outbox: ${requests.length} deletes stayed unprocessed`);
        if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
        const result: BatchWriteCommandOutput = await dynamo().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
        requests = result.UnprocessedItems?.[tableName()];
      }
    }
  }
}
