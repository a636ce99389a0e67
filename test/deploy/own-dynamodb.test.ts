import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoDbLocal } from '../../local/parts/dynamodb.ts';
import { startLocalStack } from '../../local/stack.ts';
import { mintToken } from '../../local/keys.ts';

/**
 * Decisions §20: `npm start` with DYNAMODB_ENDPOINT uses that DynamoDB instead of starting DynamoDB Local (local/start.ts
 * hands the setting to the stack as `dynamoEndpoint`). Here a DynamoDB Local started apart, holding another table only.
 */
let dynamo: Awaited<ReturnType<typeof startDynamoDbLocal>>;
const REGION = 'us-east-1';

beforeAll(async () => {
  // The credentials the stack itself uses: DynamoDB Local keeps a database per access key and region.
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_REGION: REGION });
  dynamo = await startDynamoDbLocal('127.0.0.1', REGION, 'someone-elses-table');
});
afterAll(() => dynamo?.stop());

const tablesAt = async (endpoint: string) =>
  (await new DynamoDBClient({ endpoint, region: REGION }).send(new ListTablesCommand({}))).TableNames ?? [];

describe('the local stack on a DynamoDB of the user’s choice (decisions §20)', () => {
  it('creates its table there, loads the fixture into it once, and leaves that DynamoDB running when it stops', async () => {
    // Prepare
    const lines: string[] = [];
    const token = await mintToken({ clientId: 7, campaigns: [31], sub: 'own-dynamodb' });
    // Act: a first start, then a second on the same DynamoDB
    const first = await startLocalStack({ dynamoEndpoint: dynamo.endpoint, log: (line) => lines.push(line) });
    const channels = await fetch(`${first.apiUrl}/v1/client-msg-channels`, { headers: { authorization: `Bearer ${token}` } });
    await first.stop();
    const tablesAfterStop = await tablesAt(dynamo.endpoint);
    const second = await startLocalStack({ dynamoEndpoint: dynamo.endpoint, log: (line) => lines.push(line) });
    const again = await fetch(`${second.apiUrl}/v1/client-msg-channels`, { headers: { authorization: `Bearer ${token}` } });
    await second.stop();
    // Assess: the table made beside the other one, the fixture loaded once, the DynamoDB still answering
    expect(first.settings.DYNAMODB_ENDPOINT).toBe(dynamo.endpoint);
    expect(tablesAfterStop.sort()).toEqual(['someone-elses-table', first.tableName].sort());
    expect(channels.status).toBe(200);
    expect(((await channels.json()) as { total: number }).total).toBeGreaterThan(0);
    expect(again.status).toBe(200);
    expect(lines.filter((line) => line.startsWith('Directory loaded'))).toHaveLength(1);
    expect(lines.some((line) => line.includes('(DYNAMODB_ENDPOINT)') && line.includes('created there'))).toBe(true);
    expect(lines.some((line) => line.startsWith("Kept the table's data at"))).toBe(true);
  });
});
