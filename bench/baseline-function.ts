import middy from '@middy/core';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = middy(
  async () => (await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'a', sk: 'b' } }))).Item ?? null,
);
