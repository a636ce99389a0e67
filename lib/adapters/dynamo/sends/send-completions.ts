import type { SendCompletions } from '#lib/domain/sends/performance/ports.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT } from '../table.ts';
import { cancellationCodes } from '../transactions.ts';
import { outboxItem } from '../webhooks/outbox-store.ts';
import { transact } from './send-items.ts';

/** A send's completion (decisions §33): `completed_at` set once, with its `send.completed` event in the outbox, in one transaction. */
export class DynamoSendCompletions implements SendCompletions {
  constructor(private readonly table: ServiceTable) {}

  async complete(sendId: string, event: ServiceEvent) {
    try {
      await transact(this.table, () => [
        {
          Update: {
            TableName: this.table.name,
            Key: { pk: keys.send(sendId), sk: SORT.send },
            UpdateExpression: 'SET completed_at = :at',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(completed_at)',
            ExpressionAttributeValues: { ':at': event.occurred_at },
          },
        },
        { Put: { TableName: this.table.name, Item: outboxItem(event) } },
      ]);
      return true;
    } catch (error) {
      if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }
}
