import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CostGap, ReconciliationStore } from '#lib/domain/money/ports.ts';
import type { ServiceTable } from '../client.ts';
import { queryAll } from '../queries.ts';
import { COST_GAPS_PARTITION, keys, SORT } from '../table.ts';

/**
 * What the daily reconciliation keeps between runs (decisions §26): a WABA's unread days beside Meta's figures of
 * it (`META_COST#<waba>`, `READ_FAILED`), and each client's gaps of a day in one partition, read by days: one
 * Query answers `GET /v1/usage/gaps` for any period, and a day with no gap holds no item.
 */
export class DynamoReconciliationStore implements ReconciliationStore {
  constructor(private readonly table: ServiceTable) {}

  async failedDays(wabaId: string) {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.metaCost(wabaId), sk: SORT.metaCostUnread }, ConsistentRead: true }),
    );
    return (Item?.days ?? []) as string[];
  }

  async setFailedDays(wabaId: string, days: string[]) {
    await this.replace(
      { pk: keys.metaCost(wabaId), sk: SORT.metaCostUnread },
      days.length > 0 && { entity: 'meta_cost_unread', waba_id: wabaId, days },
    );
  }

  async putGaps(clientId: number, day: string, gaps: CostGap[]) {
    await this.replace(
      { pk: COST_GAPS_PARTITION, sk: keys.costGapDay(day, clientId) },
      gaps.length > 0 && { entity: 'cost_gaps', client_id: clientId, day, gaps },
    );
  }

  /** The item at `key` becomes `item`; none (false) removes it, so an empty list holds no item. */
  private async replace(key: { pk: string; sk: string }, item: Record<string, unknown> | false) {
    if (item) await this.table.client.send(new PutCommand({ TableName: this.table.name, Item: { ...key, ...item } }));
    else await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: key }));
  }

  async gaps(from: string, to: string) {
    const items = await queryAll(this.table, {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      // `DAY#<from>` sorts before its `#CLIENT#…`, and `~` after every one of the last day's.
      ExpressionAttributeValues: { ':pk': COST_GAPS_PARTITION, ':from': keys.ledgerDay(from), ':to': `${keys.ledgerDay(to)}~` },
    });
    return items.flatMap((item) => item.gaps as CostGap[]).sort((a, b) => a.day.localeCompare(b.day) || a.client_id - b.client_id);
  }
}
