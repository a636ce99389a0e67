import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from '#lib/domain/shared/directory.ts';
import type { DirectoryStore } from '#lib/domain/shared/ports.ts';
import { CHANNELS_PARTITION, keys, SORT } from '#lib/adapters/dynamo/table.ts';
import { Cache } from '../../cache.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet, queryAll, stripKeys } from '../queries.ts';

async function getItem<T>(table: ServiceTable, pk: string, sk: string): Promise<T | null> {
  const result = await table.client.send(new GetCommand({ TableName: table.name, Key: { pk, sk } }));
  return stripKeys<T>(result.Item);
}

/**
 * A WABA read is kept a minute: every status of a batch asks its WABA's portfolio (people-map.ts) and every send
 * its namespace (provider.ts), and the directory changes only by import.
 */
const WABA_KEPT = { maxEntries: 1_000, maxAgeMs: 60_000 };

export class DynamoDirectoryStore implements DirectoryStore {
  private readonly wabas = new Cache<string, Promise<Waba | null>>(WABA_KEPT);
  /** A client read is kept as a WABA's: every status batch asks its client's billing timezone (decisions §31). */
  private readonly clients = new Cache<number, Promise<Client | null>>(WABA_KEPT);

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
    const read = this.wabas.getOrRead(wabaId, () => getItem<Waba>(this.table, keys.waba(wabaId), SORT.waba));
    // A WABA not in the directory yet is asked again next time (a failed read is never kept).
    read.then((waba) => waba ?? this.wabas.delete(wabaId)).catch(() => undefined);
    return read;
  }

  getClient(clientId: number) {
    const read = this.clients.getOrRead(clientId, () => getItem<Client>(this.table, keys.client(clientId), SORT.client));
    read.then((client) => client ?? this.clients.delete(clientId)).catch(() => undefined);
    return read;
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
