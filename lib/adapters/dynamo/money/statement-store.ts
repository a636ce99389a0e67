import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { StatementSnapshot, StatementStore } from '#lib/domain/money/ports.ts';
import type { ServiceTable } from '../client.ts';
import { keys } from '../table.ts';
import { isConditionalCheckFailure } from '../transactions.ts';

/**
 * Closed statements under their client (decisions §30): `STATEMENT#<yyyy-mm>`, the snapshot as JSON text (its
 * lines exactly as hashed, whatever DynamoDB does to numbers), written once with a condition: of two runs of the
 * close job at once, one keeps its snapshot and the other answers it. A few KB a client and month.
 */
export class DynamoStatementStore implements StatementStore {
  constructor(private readonly table: ServiceTable) {}

  async get(clientId: number, month: string) {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: { pk: keys.client(clientId), sk: keys.statement(month) }, ConsistentRead: true }),
    );
    return Item ? (JSON.parse(String(Item.snapshot)) as StatementSnapshot) : null;
  }

  /** One item read, whatever the client's history: the last `STATEMENT#` key, newest first. */
  async latest(clientId: number) {
    const { Items = [] } = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': keys.client(clientId), ':sk': keys.statement('') },
        // `snapshot` is one of DynamoDB's reserved words.
        ProjectionExpression: '#snapshot',
        ExpressionAttributeNames: { '#snapshot': 'snapshot' },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    return Items[0] ? (JSON.parse(String(Items[0].snapshot)) as StatementSnapshot) : null;
  }

  async putOnce(snapshot: StatementSnapshot) {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            pk: keys.client(snapshot.client_id),
            sk: keys.statement(snapshot.month),
            entity: 'statement',
            month: snapshot.month,
            lines_sha256: snapshot.lines_sha256,
            taken_at: snapshot.taken_at,
            snapshot: JSON.stringify(snapshot),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return snapshot;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      const kept = await this.get(snapshot.client_id, snapshot.month);
      if (!kept) throw error;
      return kept;
    }
  }
}
