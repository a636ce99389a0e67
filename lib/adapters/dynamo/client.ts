import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoEndpoint, loadConfig } from '#lib/config.ts';

let documentClient: DynamoDBDocumentClient | undefined;

/** One document client per process, created at first use and reused across invocations. */
export function dynamo(): DynamoDBDocumentClient {
  if (!documentClient) {
    const endpoint = dynamoEndpoint();
    const client = new DynamoDBClient(endpoint ? { endpoint } : {});
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return documentClient;
}

/** Replaces the process's client; used by tests that inject faults into the AWS client. */
export function setDynamo(client: DynamoDBDocumentClient | undefined) {
  documentClient = client;
}

export const tableName = () => loadConfig('TABLE_NAME').TABLE_NAME;
