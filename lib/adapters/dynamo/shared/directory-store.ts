import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from '#lib/domain/shared/directory.ts';
import type { DirectoryStore } from '#lib/domain/shared/ports.ts';
import { CHANNELS_PARTITION, keys, SORT } from '#lib/adapters/dynamo/table.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet, queryAll, stripKeys } from '../queries.ts';

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
