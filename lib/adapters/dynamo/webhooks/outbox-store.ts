import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys, OUTBOX_PARTITION, SORT } from '#lib/adapters/dynamo/table.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import type { OutboxStore } from '#lib/domain/webhooks/ports.ts';
import { writeAll } from '../batch-write.ts';
import type { ServiceTable } from '../client.ts';

export class DynamoOutboxStore implements OutboxStore {
  constructor(private readonly table: ServiceTable) {}

  /** The oldest `limit` events: one page of the outbox index, never the whole backlog. */
  async pending(olderThanIso: string, limit: number) {
    const page = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :p AND gsi1sk < :t',
        ExpressionAttributeValues: { ':p': OUTBOX_PARTITION, ':t': olderThanIso },
        Limit: limit,
      }),
    );
    return (page.Items ?? []).map((item) => item.event as ServiceEvent);
  }

  /** Deletes in batches; what DynamoDB leaves unprocessed is retried until written, else the call fails. */
  remove(ids: string[]) {
    return writeAll(
      this.table,
      ids.map((id) => ({ DeleteRequest: { Key: { pk: keys.outbox(id), sk: SORT.outbox } } })),
    );
  }
}

/** An event's outbox item, written in the same transaction as the change it tells of. */
export function outboxItem(event: ServiceEvent): Record<string, unknown> {
  return {
    pk: keys.outbox(event.id),
    sk: SORT.outbox,
    entity: 'outbox_event',
    gsi1pk: OUTBOX_PARTITION,
    gsi1sk: keys.outboxOrder(event.occurred_at, event.id),
    event,
  };
}
