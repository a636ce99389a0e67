import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TtlReturns, UnsettledMessage } from '#lib/domain/sends/dispatch/ports.ts';
import { budgetMoveUpdate } from '../money/budget-store.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT, TTL_ATTRIBUTE } from '../table.ts';
import { cancellationCodes, type TransactItem } from '../transactions.ts';
import { expiry, messageKey, transact } from './send-items.ts';

/**
 * The give-back at a send's messages' TTL end (decisions §30), one transaction a message: its message item
 * marked `ttl_returned_at` (its version moved on, so a status written meanwhile reads it again) on condition it
 * has no final status and no mark yet, with its part released on the client's month beside it. A condition that
 * fails is a message settled or given back already: nothing is released twice.
 */
export class DynamoTtlReturns implements TtlReturns {
  constructor(private readonly table: ServiceTable) {}

  async returnAtTtlEnd(sendId: string, month: string, messages: UnsettledMessage[], now: string) {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.send(sendId), sk: SORT.send } }),
    );
    if (!Item) return 0;
    let returned = 0;
    for (const message of messages) {
      const release = budgetMoveUpdate(this.table.name, Number(Item.client_id), month, { released: message.micros });
      try {
        await transact(this.table, () => [this.markOf(sendId, message.index, now), release]);
        returned++;
      } catch (error) {
        if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
      }
    }
    return returned;
  }

  /** The message's mark, on condition it is still without a final status and not marked. */
  private markOf(sendId: string, index: number, now: string): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: messageKey(sendId, index),
        UpdateExpression:
          'SET entity = :entity, #index = :index, ttl_returned_at = :now, #v = if_not_exists(#v, :zero) + :one, #ttl = if_not_exists(#ttl, :expiry)',
        ConditionExpression:
          'attribute_not_exists(ttl_returned_at) AND attribute_not_exists(delivery.delivered) AND attribute_not_exists(delivery.failed)',
        ExpressionAttributeNames: { '#index': 'index', '#v': 'v', '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':entity': 'send_message',
          ':index': index,
          ':now': now,
          ':zero': 0,
          ':one': 1,
          ':expiry': expiry(Date.parse(now)),
        },
      },
    };
  }
}
