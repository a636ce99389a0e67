import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SendRecord, SendStore } from '#lib/domain/ports.ts';
import { dynamo, tableName } from './client.ts';
import { stripKeys } from './directory-store.ts';
import { keys, SORT } from './table.ts';

/** Sends by id, and a client's sends newest first on gsi1 (docs/data-model.md). */
export class DynamoSendStore implements SendStore {
  async begin(send: SendRecord) {
    await dynamo().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          pk: keys.send(send.send_id),
          sk: SORT.send,
          entity: 'send',
          gsi1pk: keys.clientSends(send.client_id),
          gsi1sk: keys.sendOrder(send.created_at, send.send_id),
          ...send,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async settle(sendId: string, status: 'queued' | 'abandoned') {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: keys.send(sendId), sk: SORT.send },
        UpdateExpression: 'SET #s = :s',
        ConditionExpression: '#s = :queuing',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': status, ':queuing': 'queuing' },
      }),
    );
  }

  async get(sendId: string) {
    const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: { pk: keys.send(sendId), sk: SORT.send } }));
    return stripKeys<SendRecord>(result.Item);
  }
}
