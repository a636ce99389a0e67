import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The service's table as every DynamoDB adapter gets it, through its constructor: the document client and the
 * table's name. The composition root decides where they come from (lib/wiring/table.ts: the function's settings;
 * a test: the local stack's table, or a client that injects faults).
 */
export interface ServiceTable {
  readonly client: DynamoDBDocumentClient;
  readonly name: string;
}

/** A document client as the adapters expect it (undefined attributes dropped); `endpoint` for DynamoDB Local. */
export function documentClient(endpoint?: string, client = new DynamoDBClient(endpoint ? { endpoint } : {})): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false } });
}
