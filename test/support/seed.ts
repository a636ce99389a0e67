import { inject } from 'vitest';
import { importDirectory } from '#lib/adapters/dynamo/shared/directory-import.ts';
import { documentClient, type ServiceTable } from '#lib/adapters/dynamo/client.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * Loads a directory of the test's own into the running stack's table with the real import command, so
 * each test file owns its clients and records and never depends on another file's writes.
 */
export async function seedDirectory(file: Record<string, unknown>) {
  useStackTable();
  await importDirectory(table, file);
}

/** Points this test worker's AWS clients at the running stack's DynamoDB Local and table. */
export function useStackTable() {
  Object.assign(process.env, {
    TABLE_NAME: inject('tableName'),
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
}

/**
 * The stack's table on a DynamoDB client of the file's own (made at first use, after useStackTable): a meter on
 * it counts this file's requests alone, never those of work an earlier file of the worker left running.
 */
export function ownStackTable(): ServiceTable {
  let client: ServiceTable['client'] | undefined;
  return {
    get client() {
      client ??= documentClient(inject('dynamoEndpoint'));
      return client;
    },
    get name() {
      return inject('tableName');
    },
  };
}

export const hexId = (prefix: number, n: number) => `${prefix.toString(16).padStart(8, '0')}${n.toString(16).padStart(16, '0')}`;

export const bodyComponent = (text: string, examples: string[] = []) => ({
  type: 'BODY',
  text,
  ...(examples.length ? { example: { body_text: [examples] } } : {}),
});

/** A WABA entry with templates (upstream state the records point at). */
export function waba(id: string, templates: Record<string, unknown>[]) {
  return { waba_id: id, waba_name: `WABA ${id}`, business_id: `b${id}`, business_name: `Business ${id}`, namespace: `ns_${id}`, templates };
}

export const template = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  language: 'en_US',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [bodyComponent('Hello {{1}}', ['x'])],
  quality_score: { score: 'GREEN' },
  ...extra,
});
