import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Suppression, SuppressionStore } from '#lib/domain/people/ports.ts';
import { suppressionKey } from '#lib/domain/people/suppression.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet, queryFirst, stripKeys } from '../queries.ts';
import { keys, SORT } from '../table.ts';
import { cancellationCodes, type TransactItem } from '../transactions.ts';

/**
 * A client's suppression list (decisions §25, §28): one item a phone number (or a BSUID, `U#<user_id>`) under
 * the client's list partition, so a send checks its recipients with a BatchGetItem of 100 keys a batch, however
 * long the list; the list's size is a count beside the client, kept with every entry added or removed.
 */
export class DynamoSuppressionStore implements SuppressionStore {
  constructor(private readonly table: ServiceTable) {}

  private key(clientId: number, key: string) {
    return { pk: keys.suppressions(clientId), sk: key };
  }

  private count(clientId: number, by: 1 | -1) {
    return {
      Update: {
        TableName: this.table.name,
        Key: { pk: keys.client(clientId), sk: SORT.suppressionCount },
        UpdateExpression: 'ADD #n :by',
        ExpressionAttributeNames: { '#n': 'suppressions' },
        ExpressionAttributeValues: { ':by': by },
      },
    };
  }

  /** An entry added or removed with the list's count, when its condition holds: whether it did. */
  private async changeEntry(clientId: number, by: 1 | -1, entry: TransactItem) {
    try {
      await this.table.client.send(new TransactWriteCommand({ TransactItems: [entry, this.count(clientId, by)] }));
      return true;
    } catch (error) {
      if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  add(clientId: number, entry: Suppression, key = suppressionKey(entry)) {
    return this.changeEntry(clientId, 1, {
      Put: {
        TableName: this.table.name,
        Item: { ...this.key(clientId, key), entity: 'suppression', client_id: clientId, ...entry },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  }

  remove(clientId: number, key: string) {
    return this.changeEntry(clientId, -1, {
      Delete: { TableName: this.table.name, Key: this.key(clientId, key), ConditionExpression: 'attribute_exists(pk)' },
    });
  }

  /** The entries among these keys (digits, or `U#<user_id>`): one BatchGetItem a hundred. */
  async get(clientId: number, wanted: string[]) {
    const unique = [...new Set(wanted)];
    const items =
      unique.length === 0
        ? []
        : await batchGet(
            this.table,
            unique.map((key) => this.key(clientId, key)),
          );
    return new Map(items.map((item) => [String(item.sk), entryOf(item)]));
  }

  async list(clientId: number, page: { offset: number; size: number }) {
    const count = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.client(clientId), sk: SORT.suppressionCount } }),
    );
    const total = Number(count.Item?.suppressions ?? 0);
    if (page.offset >= total) return { entries: [], total };
    const items = await queryFirst(
      this.table,
      { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.suppressions(clientId) } },
      page.offset + page.size,
    );
    return { entries: items.slice(page.offset).map(entryOf), total };
  }
}

function entryOf(item: Record<string, unknown>): Suppression {
  const { entity: _e, client_id: _c, ...entry } = stripKeys<Record<string, unknown>>(item) ?? {};
  return entry as unknown as Suppression;
}
