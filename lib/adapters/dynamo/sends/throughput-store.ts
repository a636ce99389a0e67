import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { KnownThroughput, ThroughputStore } from '#lib/domain/sends/dispatch/ports.ts';
import type { ThroughputLevel } from '#lib/domain/shared/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys, SORT } from '../table.ts';

/** A sending number's level as last learned (`NUMBER#<digits>` / `THROUGHPUT`): one small item per number. */
export class DynamoThroughputStore implements ThroughputStore {
  constructor(private readonly table: ServiceTable) {}

  private key(digits: string) {
    return { pk: keys.number(digits), sk: SORT.throughput };
  }

  async get(digits: string) {
    const item = (await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: this.key(digits) }))).Item;
    return item ? { level: item.level as ThroughputLevel, checkedAtMs: Number(item.checked_at_ms) } : undefined;
  }

  async put(digits: string, known: KnownThroughput) {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...this.key(digits), entity: 'throughput', level: known.level, checked_at_ms: known.checkedAtMs },
      }),
    );
  }

  async forget(digits: string) {
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: this.key(digits) }));
  }
}
