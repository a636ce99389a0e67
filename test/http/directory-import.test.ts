import { readFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { DirectoryFileError } from '#lib/adapters/directory-file.ts';
import { importDirectory } from '#lib/adapters/dynamo/shared/directory-import.ts';
import { createTable } from '../../local/parts/dynamodb.ts';
import { DEMO_FIXTURE } from '../../local/stack.ts';
import { useStackTable } from '../support/seed.ts';
import type { ServiceTable } from '#lib/adapters/dynamo/client.ts';
import { tableClient } from '#lib/wiring/table.ts';

/** Each test imports into a table of its own on the running DynamoDB Local. */
let raw: DynamoDBClient;
const demo = () => JSON.parse(readFileSync(DEMO_FIXTURE, 'utf8'));

/** A new table on the stack's DynamoDB Local, handed to the import as its table. */
async function freshTable(name: string): Promise<ServiceTable> {
  await createTable(raw, name);
  return { client: tableClient(), name };
}

async function itemCount(name: string) {
  // A scan is fine in a test that counts a whole throwaway table.
  const result = await DynamoDBDocumentClient.from(raw).send(new ScanCommand({ TableName: name, Select: 'COUNT' }));
  return result.Count ?? 0;
}

beforeAll(() => {
  useStackTable();
  raw = new DynamoDBClient({ endpoint: inject('dynamoEndpoint') });
});

describe('directory import (decisions §8)', () => {
  it('is idempotent: a second import of the same file changes nothing', async () => {
    const table = await freshTable('import-idempotent');
    const first = await importDirectory(table, demo());
    const count = await itemCount('import-idempotent');
    await importDirectory(table, demo());
    expect(await itemCount('import-idempotent')).toBe(count);
    expect(count).toBe(first.items);
  });

  it('refuses a file with unknown keys or bad references whole, naming each bad entry, and writes nothing', async () => {
    // Prepare
    const table = await freshTable('import-invalid');
    const file = demo();
    file.channels[1].colour = 'blue';
    file.campaigns.push({ campaign_id: 99, campaign_name: 'Ghost', client_id: 4242 });
    // Act
    const error = await importDirectory(table, file).catch((e: unknown) => e);
    // Assess
    expect(error).toBeInstanceOf(DirectoryFileError);
    expect((error as DirectoryFileError).problems.map((p) => p.path)).toContain('channels[1].colour');
    expect(await itemCount('import-invalid')).toBe(0);
    const refs = demo();
    refs.campaigns.push({ campaign_id: 99, campaign_name: 'Ghost', client_id: 4242 });
    const refError = (await importDirectory(table, refs).catch((e: unknown) => e)) as DirectoryFileError;
    expect(refError.problems).toEqual([{ path: `campaigns[${refs.campaigns.length - 1}].client_id`, message: 'unknown client_id 4242' }]);
    expect(await itemCount('import-invalid')).toBe(0);
  });
});
