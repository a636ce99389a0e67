import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BudgetMonth, BudgetRelease, BudgetStore, ReservationWatch } from '#lib/domain/money/ports.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet } from '../queries.ts';
import { BUDGET_SHARDS, BUDGET_SHARDS_BEFORE_54, keys, RESERVATION_WATCH_SHARDS, SORT } from '../table.ts';
import { cancellationCodes, isConditionalCheckFailure, type TransactItem, transactWrite } from '../transactions.ts';

/**
 * Budgets under their client (decisions §24, §27): the budget (`BUDGET`, with its currency, §31), each month's reservations
 * (`BUDGET#<yyyy-mm>`, a sum in micro-units) and what settled of the month (`BUDGET#<client>#<00–31>` /
 * `BUDGET#<yyyy-mm>`: spent and released, added by the status path and block settlements to a shard chosen at
 * random, each shard a partition key of its own, so no item and no key takes a write per message). A send reserves with one conditional ADD: of two sends at once only those that fit pass.
 */
export class DynamoBudgetStore implements BudgetStore {
  constructor(private readonly table: ServiceTable) {}

  async get(clientId: number) {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.client(clientId), sk: SORT.budget }, ConsistentRead: true }),
    );
    return Item && typeof Item.monthly_micros === 'number'
      ? {
          monthly_micros: Item.monthly_micros,
          updated_at: String(Item.updated_at),
          ...(typeof Item.currency === 'string' && { currency: Item.currency }),
        }
      : null;
  }

  async set(clientId: number, monthlyMicros: number | null, at: string, currency?: string) {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          pk: keys.client(clientId),
          sk: SORT.budget,
          entity: 'budget',
          ...(monthlyMicros !== null && { monthly_micros: monthlyMicros, ...(currency && { currency }) }),
          updated_at: at,
        },
      }),
    );
  }

  /**
   * The month's reservation item and its settlement shards, in one consistent BatchGetItem: the shards on their own
   * keys, and where a month settled before issue 54, under the client's key (never written since).
   */
  async month(clientId: number, month: string): Promise<BudgetMonth> {
    const shards = (count: number) => Array.from({ length: count }, (_, shard) => shard);
    const items = await batchGet(
      this.table,
      [
        { pk: keys.client(clientId), sk: keys.budgetMonth(month) },
        ...shards(BUDGET_SHARDS).map((shard) => budgetShardKey(clientId, month, shard)),
        ...shards(BUDGET_SHARDS_BEFORE_54).map((shard) => ({ pk: keys.client(clientId), sk: keys.budgetShardBefore54(month, shard) })),
      ],
      true,
    );
    const sum = (field: string) => items.reduce((total, item) => total + Number(item[field] ?? 0), 0);
    return { reserved: sum('reserved_micros'), released: sum('released_micros'), spent: sum('spent_micros') };
  }

  /**
   * One conditional ADD on the month's reservation item: what settled (read just before) leaves this much room
   * for reservations. Settlements meanwhile only give room back (a message never costs more than its estimate
   * but for Meta's authentication-international rate), so two sends at once still never both pass.
   */
  async reserve(clientId: number, month: string, micros: number, limitMicros?: number, watch?: ReservationWatch) {
    const now = await this.month(clientId, month);
    const settled = now.spent - now.released;
    const room = limitMicros === undefined ? undefined : limitMicros - settled - micros;
    if (room !== undefined && room < 0) return null;
    const update = {
      TableName: this.table.name,
      Key: { pk: keys.client(clientId), sk: keys.budgetMonth(month) },
      UpdateExpression: 'SET entity = :entity ADD reserved_micros :micros',
      ...(room !== undefined && { ConditionExpression: 'attribute_not_exists(reserved_micros) OR reserved_micros <= :room' }),
      ExpressionAttributeValues: { ':entity': 'budget_month', ':micros': micros, ...(room !== undefined && { ':room': room }) },
    };
    try {
      // With a watch, both in one transaction; the committed total is then read from before plus this send.
      // Tried again while only a concurrent write of the month's item cancels it (sends of one client at once).
      if (watch) {
        await transactWrite(this.table, [{ Update: update }, { Put: watchPut(this.table.name, watch) }]);
        return now.reserved + micros + settled;
      }
      const { Attributes } = await this.table.client.send(new UpdateCommand({ ...update, ReturnValues: 'UPDATED_NEW' }));
      return Number(Attributes?.reserved_micros ?? micros) + settled;
    } catch (error) {
      if (isConditionalCheckFailure(error) || cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return null;
      throw error;
    }
  }

  async release(clientId: number, month: string, micros: number) {
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: { pk: keys.client(clientId), sk: keys.budgetMonth(month) },
        UpdateExpression: 'ADD reserved_micros :back',
        ExpressionAttributeValues: { ':back': -micros },
      }),
    );
  }
}

/** A reservation's watch as its item (decisions §30): on its send's shard, sorted by when it is due. */
export const watchPut = (tableName: string, watch: ReservationWatch) => ({
  TableName: tableName,
  Item: {
    pk: keys.reservationWatch(watchShardOf(watch.send_id)),
    sk: keys.reservationWatchSort(watch.due_at, watch.send_id),
    entity: 'reservation_watch',
    ...watch,
  },
});

/** A send's watch shard: a hash of its id, so a watch moved to a later time stays on its shard. */
export const watchShardOf = (sendId: string) =>
  [...sendId].reduce((hash, c) => (hash * 31 + c.charCodeAt(0)) >>> 0, 7) % RESERVATION_WATCH_SHARDS;

/**
 * A settlement's move of a client's month, in the transaction that settles it: spent by the month delivered in,
 * released by the month reserved in (decisions §27), on one of the month's shards chosen at random.
 */
export function budgetMoveUpdate(
  tableName: string,
  clientId: number,
  month: string,
  move: { spent?: number; released?: number },
): TransactItem {
  const adds = [...(move.spent ? ['spent_micros :spent'] : []), ...(move.released ? ['released_micros :released'] : [])];
  return {
    Update: {
      TableName: tableName,
      Key: budgetShardKey(clientId, month, Math.floor(Math.random() * BUDGET_SHARDS)),
      UpdateExpression: `SET entity = :entity ADD ${adds.join(', ')}`,
      ExpressionAttributeValues: {
        ':entity': 'budget_settled',
        ...(move.spent && { ':spent': move.spent }),
        ...(move.released && { ':released': move.released }),
      },
    },
  };
}

/** A client's month on one of its settlement shards: a partition key a shard, so no client's key gets hot. */
export const budgetShardKey = (clientId: number, month: string, shard: number) => ({
  pk: keys.budgetShard(clientId, shard),
  sk: keys.budgetMonth(month),
});

/** A block's or job's release as its settlement transaction's item. */
export const releaseUpdate = (tableName: string, release: BudgetRelease | undefined) =>
  release && release.micros > 0 ? [budgetMoveUpdate(tableName, release.client_id, release.month, { released: release.micros })] : [];
