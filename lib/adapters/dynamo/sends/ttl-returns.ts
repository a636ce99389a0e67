import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TtlReturns, UnsettledMessage } from '#lib/domain/sends/dispatch/ports.ts';
import { budgetMoveUpdate } from '../money/budget-store.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT, TTL_ATTRIBUTE } from '../table.ts';
import { cancellationCodes, type TransactItem } from '../transactions.ts';
import {
  decodeRecord,
  deliveryAttribute,
  encodeLatest,
  latestFromOf,
  latestItemKey,
  layoutOf,
  type StatesLayout,
  titleAttribute,
} from './latest-states.ts';
import { expiry, messageKey, TRIES, transact } from './send-items.ts';

/**
 * The give-back at a send's messages' TTL end (decisions §30), one transaction a message: its record on the
 * latest item that holds it (its block's third, or the whole block's for a send accepted before) marked (latest-states.ts), on condition it is still the record read, which had no final
 * status and no mark, with its part released on the client's month beside it. A record moved meanwhile is read
 * again; one settled or marked already releases nothing: nothing is released twice. A send of before issue 54
 * may have a mark on its message's own item (`MSG#`) instead: such a message is given back already.
 */
export class DynamoTtlReturns implements TtlReturns {
  constructor(private readonly table: ServiceTable) {}

  async returnAtTtlEnd(sendId: string, month: string, messages: UnsettledMessage[], now: string) {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.send(sendId), sk: SORT.send } }),
    );
    if (!Item) return 0;
    const layout = layoutOf(Item);
    let returned = 0;
    for (const message of messages) {
      if (layout === 'messages' && (await this.markedOnItsItem(sendId, message.index))) continue;
      const release = budgetMoveUpdate(this.table.name, Number(Item.client_id), month, { released: message.micros });
      for (let attempt = 1; ; attempt++) {
        const mark = await this.markOf(sendId, message, now, layout);
        if (!mark) break;
        try {
          await transact(this.table, () => [mark, release]);
          returned++;
          break;
        } catch (error) {
          // Its record moved since it was read (a status, or another give-back): read it again.
          if (!cancellationCodes(error)?.includes('ConditionalCheckFailed') || attempt >= TRIES) throw error;
        }
      }
    }
    return returned;
  }

  /**
   * The message's mark on its block's latest item, on condition its record is still the one read; none when the
   * record has a final status or a mark already.
   */
  private async markOf(
    sendId: string,
    { index, block }: UnsettledMessage,
    now: string,
    layout: StatesLayout,
  ): Promise<TransactItem | undefined> {
    const Key = latestItemKey(sendId, block, latestFromOf(index - block, layout));
    const attribute = deliveryAttribute(index - block);
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key, ConsistentRead: true }));
    const seen = Item?.[attribute];
    const record = typeof seen === 'string' ? decodeRecord(seen, (code) => Item?.[titleAttribute(code)] as string | undefined) : {};
    const state = record.delivery?.state;
    if (record.returnedAt || state?.delivered || state?.failed) return undefined;
    const at = record.delivery ? Date.parse(record.delivery.at) : Date.parse(now);
    return {
      Update: {
        TableName: this.table.name,
        Key,
        UpdateExpression: 'SET #d = :d, #ttl = if_not_exists(#ttl, :expiry)',
        ConditionExpression: typeof seen === 'string' ? '#d = :seen' : 'attribute_not_exists(#d)',
        ExpressionAttributeNames: { '#d': attribute, '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':d': encodeLatest(state, at, Date.parse(now)),
          ':expiry': expiry(Date.parse(now)),
          ...(typeof seen === 'string' && { ':seen': seen }),
        },
      },
    };
  }

  /** Whether a message of a send of before issue 54 was given back already, on its own item. */
  private async markedOnItsItem(sendId: string, index: number) {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: messageKey(sendId, index), ConsistentRead: true }),
    );
    return Item?.ttl_returned_at !== undefined;
  }
}
