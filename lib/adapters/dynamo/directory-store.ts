import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from '#lib/domain/directory.ts';
import type { DirectoryStore } from '#lib/domain/ports.ts';
import { CHANNELS_PARTITION, keys, SORT } from '#lib/adapters/dynamo/table.ts';
import { dynamo, tableName } from './client.ts';

const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'entity', 'expires_at'];

/** Drops the storage keys so callers see the entity as the contract names it. */
export function stripKeys<T>(item: Record<string, unknown> | undefined): T | null {
  if (!item) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) if (!KEY_ATTRIBUTES.includes(k)) out[k] = v;
  return out as T;
}

/** Runs a Query to the end, page by page. */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

async function getItem<T>(pk: string, sk: string): Promise<T | null> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: { pk, sk } }));
  return stripKeys<T>(result.Item);
}

export class DynamoDirectoryStore implements DirectoryStore {
  getChannel(waId: string) {
    return getItem<ChannelRecord>(keys.channel(waId), 'CHANNEL');
  }

  async listChannels(clientId?: number) {
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: clientId === undefined ? 'gsi1pk = :p' : 'gsi1pk = :p AND begins_with(gsi1sk, :c)',
      ExpressionAttributeValues:
        clientId === undefined ? { ':p': CHANNELS_PARTITION } : { ':p': CHANNELS_PARTITION, ':c': keys.channelOrder(clientId, '') },
    });
    return items.map((item) => stripKeys<ChannelRecord>(item)!);
  }

  async clientHasWaba(clientId: number, wabaId: string) {
    return (await getItem(keys.client(clientId), keys.waba(wabaId))) !== null;
  }

  async listClientWabas(clientId: number) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :w)',
      ExpressionAttributeValues: { ':p': keys.client(clientId), ':w': SORT.wabaPrefix },
    });
    return items.map((item) => String(item.waba_id));
  }

  getWaba(wabaId: string) {
    return getItem<Waba>(keys.waba(wabaId), SORT.waba);
  }

  getClient(clientId: number) {
    return getItem<Client>(keys.client(clientId), SORT.client);
  }

  getCampaign(clientId: number, campaignId: number) {
    return getItem<Campaign>(keys.client(clientId), keys.campaign(campaignId));
  }

  getContactChannel(clientId: number, channelId: number) {
    return getItem<ContactChannel>(keys.client(clientId), keys.contactChannel(channelId));
  }
}
