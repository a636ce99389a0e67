import { DeleteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ReservationWatch } from '#lib/domain/money/ports.ts';
import type { ReservationWatches } from '#lib/domain/sends/operations/ports.ts';
import type { ServiceTable } from '../client.ts';
import { budgetMoveUpdate, watchPut, watchShardOf } from '../money/budget-store.ts';
import { keys, RESERVATION_WATCH_SHARDS } from '../table.ts';
import { cancellationCodes } from '../transactions.ts';

/**
 * Reservations' watches (decisions §30) on RESERVATION_WATCH_SHARDS partitions, each sorted by when its watches
 * are due (`<due_at>#<send id>`): what is due is a query per shard up to now, whatever the table holds besides.
 * A watch is written with its reservation (DynamoBudgetStore.reserve) and moved by a delete and a put in one
 * transaction, so a crash never leaves it twice or not at all.
 */
export class DynamoReservationWatches implements ReservationWatches {
  constructor(private readonly table: ServiceTable) {}

  async due(now: string, limit: number) {
    const shards = await Promise.all(
      Array.from({ length: RESERVATION_WATCH_SHARDS }, (_, shard) =>
        this.table.client.send(
          new QueryCommand({
            TableName: this.table.name,
            KeyConditionExpression: 'pk = :pk AND sk <= :now',
            // Every watch due at `now` sorts before `<now>#`, whatever its send id.
            ExpressionAttributeValues: { ':pk': keys.reservationWatch(shard), ':now': `${now}#\uffff` },
            Limit: limit,
          }),
        ),
      ),
    );
    return shards
      .flatMap((answer) => (answer.Items ?? []).map(watchOf))
      .sort((a, b) => a.due_at.localeCompare(b.due_at))
      .slice(0, limit);
  }

  async refile(watch: ReservationWatch, dueAt: string) {
    await this.table.client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: this.table.name, Key: keyOf(watch) } },
          { Put: watchPut(this.table.name, { ...watch, due_at: dueAt }) },
        ],
      }),
    );
  }

  async forget(watch: ReservationWatch) {
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keyOf(watch) }));
  }

  async returnUnrecorded(watch: ReservationWatch) {
    try {
      await this.table.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: this.table.name, Key: keyOf(watch), ConditionExpression: 'attribute_exists(pk)' } },
            budgetMoveUpdate(this.table.name, watch.client_id, watch.month, { released: watch.micros }),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }
}

const keyOf = (watch: ReservationWatch) => ({
  pk: keys.reservationWatch(watchShardOf(watch.send_id)),
  sk: keys.reservationWatchSort(watch.due_at, watch.send_id),
});

const watchOf = (item: Record<string, unknown>): ReservationWatch => ({
  send_id: String(item.send_id),
  client_id: Number(item.client_id),
  month: String(item.month),
  micros: Number(item.micros),
  due_at: String(item.due_at),
});
