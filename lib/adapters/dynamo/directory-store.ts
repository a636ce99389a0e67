import { BatchGetCommand, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from '#lib/domain/directory.ts';
import type { DirectoryStore } from '#lib/domain/ports.ts';
import { CHANNELS_PARTITION, keys, SORT } from '#lib/adapters/dynamo/table.ts';
import type { ServiceTable } from './client.ts';

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

async function getItem<T>(table: ServiceTable, pk: string, sk: string): Promise<T | null> {
  const result = await table.client.send(new GetCommand({ TableName: table.name, Key: { pk, sk } }));
  return stripKeys<T>(result.Item);
}

export class DynamoDirectoryStore implements DirectoryStore {
  constructor(private readonly table: ServiceTable) {}

  getChannel(waId: string) {
    return getItem<ChannelRecord>(this.table, keys.channel(waId), 'CHANNEL');
  }

  async listChannels(clientId?: number) {
    const items = await queryAll(this.table, {
      IndexName: 'gsi1',
      KeyConditionExpression: clientId === undefined ? 'gsi1pk = :p' : 'gsi1pk = :p AND begins_with(gsi1sk, :c)',
      ExpressionAttributeValues:
        clientId === undefined ? { ':p': CHANNELS_PARTITION } : { ':p': CHANNELS_PARTITION, ':c': keys.channelOrder(clientId, '') },
    });
    return items.map((item) => stripKeys<ChannelRecord>(item)!);
  }

  async clientHasWaba(clientId: number, wabaId: string) {
    return (await getItem(this.table, keys.client(clientId), keys.waba(wabaId))) !== null;
  }

  async listClientWabas(clientId: number) {
    const items = await queryAll(this.table, {
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :w)',
      ExpressionAttributeValues: { ':p': keys.client(clientId), ':w': SORT.wabaPrefix },
    });
    return items.map((item) => String(item.waba_id));
  }

  getWaba(wabaId: string) {
    return getItem<Waba>(this.table, keys.waba(wabaId), SORT.waba);
  }

  getClient(clientId: number) {
    return getItem<Client>(this.table, keys.client(clientId), SORT.client);
  }

  getCampaign(clientId: number, campaignId: number) {
    return getItem<Campaign>(this.table, keys.client(clientId), keys.campaign(campaignId));
  }

  getContactChannel(clientId: number, channelId: number) {
    return getItem<ContactChannel>(this.table, keys.client(clientId), keys.contactChannel(channelId));
  }

  async getAssignables(clientId: number, channelIds: number[], campaignIds: number[]) {
    const wanted = [
      ...[...new Set(channelIds)].map((id) => ({ pk: keys.client(clientId), sk: keys.contactChannel(id) })),
      ...[...new Set(campaignIds)].map((id) => ({ pk: keys.client(clientId), sk: keys.campaign(id) })),
    ];
    const channels = new Map<number, ContactChannel>();
    const campaigns = new Map<number, Campaign>();
    for (const item of await batchGet(this.table, wanted)) {
      if (item.entity === 'contact_channel') channels.set(Number(item.channel_id), stripKeys<ContactChannel>(item)!);
      if (item.entity === 'campaign') campaigns.set(Number(item.campaign_id), stripKeys<Campaign>(item)!);
    }
    return { channels, campaigns };
  }

  channelOfClient(clientId: number, did: string) {
    return getItem<ChannelRecord>(this.table, keys.client(clientId), keys.clientChannel(did));
  }
}
