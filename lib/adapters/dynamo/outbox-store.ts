import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ServiceEvent } from '#lib/domain/events.ts';
import type { OutboxStore } from '#lib/domain/ports.ts';
import { keys, OUTBOX_PARTITION, SORT } from '#lib/adapters/dynamo/table.ts';
import { dynamo, tableName } from './client.ts';
import { queryAll } from './directory-store.ts';

export class DynamoOutboxStore implements OutboxStore {
  async pending(olderThanIso: string, limit: number) {
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk < :t',
      ExpressionAttributeValues: { ':p': OUTBOX_PARTITION, ':t': olderThanIso },
      Limit: limit,
    });
    return items.slice(0, limit).map((item) => item.event as ServiceEvent);
  }

  async remove(ids: string[]) {
    for (let i = 0; i < ids.length; i += 25) {
      await dynamo().send(
        new BatchWriteCommand({
          RequestItems: {
            [tableName()]: ids.slice(i, i + 25).map((id) => ({ DeleteRequest: { Key: { pk: keys.outbox(id), sk: SORT.outbox } } })),
          },
        }),
      );
    }
  }
}
