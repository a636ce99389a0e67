import { BatchGetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ServiceTable } from './client.ts';

/** The reads every store shares: whole queries, first pages, batch gets of any size, and items without their keys. */

const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'entity', 'expires_at'];

/** Drops the storage keys so callers see the entity as the contract names it. */
export function stripKeys<T>(item: Record<string, unknown> | undefined): T | null {
  if (!item) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) if (!KEY_ATTRIBUTES.includes(k)) out[k] = v;
  return out as T;
}

/** Runs a Query to the end, page by page. */
export async function queryAll(table: ServiceTable, input: Omit<QueryCommandInput, 'TableName'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(new QueryCommand({ ...input, TableName: table.name, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * The most items one Query asks for: DynamoDB answers at most 1 MB a request whatever the limit, and a limit past
 * its integer range is refused (a listing's page 999,999,999 asked for 2·10¹⁰ and got a 500).
 */
export const QUERY_LIMIT = 10_000;

/**
 * The first `wanted` items of a Query (a page and the ones before it), asking each request for only what is
 * still missing; a filter can make a request answer fewer, so it goes on until it has them or the end.
 */
export async function queryFirst(
  table: ServiceTable,
  input: Omit<QueryCommandInput, 'TableName' | 'Limit'>,
  wanted: number,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new QueryCommand({ ...input, TableName: table.name, Limit: Math.min(wanted - items.length, QUERY_LIMIT), ExclusiveStartKey: start }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start && items.length < wanted);
  return items;
}

/** BatchGetItem of any number of keys, 100 at a time, until DynamoDB has answered for every key. */
export async function batchGet(
  table: ServiceTable,
  wanted: { pk: string; sk: string }[],
  consistent = false,
): Promise<Record<string, unknown>[]> {
  const chunks: { pk: string; sk: string }[][] = [];
  for (let i = 0; i < wanted.length; i += 100) chunks.push(wanted.slice(i, i + 100));
  // The chunks go at once (a bulk request reads at most 10 of them).
  const answers = await Promise.all(chunks.map((chunk) => batchGetChunk(table, chunk, consistent)));
  return answers.flat();
}

async function batchGetChunk(table: ServiceTable, keys: { pk: string; sk: string }[], consistent: boolean) {
  const items: Record<string, unknown>[] = [];
  let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = {
    [table.name]: { Keys: keys, ConsistentRead: consistent },
  };
  for (let attempt = 0; request && Object.keys(request).length > 0; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** Math.min(attempt, 6)));
    const result = await table.client.send(new BatchGetCommand({ RequestItems: request }));
    items.push(...(result.Responses?.[table.name] ?? []));
    request = result.UnprocessedKeys as typeof request;
  }
  return items;
}
