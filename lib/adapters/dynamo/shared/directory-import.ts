import { type DirectoryFile, directoryEntities, parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import { CHANNELS_PARTITION, keys, SORT } from '#lib/adapters/dynamo/table.ts';
import type { ServiceTable } from '../client.ts';
import { putAll } from '../batch-write.ts';
import { clientChannelItems, listingItemsOf } from '../derived-items.ts';
import { recordItem } from '../templates/record-items.ts';

/** The items an import writes. Upstream state under a WABA (catalogs, templates) is not stored. */
export function directoryItems(file: DirectoryFile, now = new Date().toISOString()): Record<string, unknown>[] {
  const entities = directoryEntities(file, now);
  return [
    ...entities.clients.map((client) => ({ pk: keys.client(client.client_id), sk: SORT.client, entity: 'client', ...client })),
    ...entities.wabas.map((waba) => ({ pk: keys.waba(waba.waba_id), sk: SORT.waba, entity: 'waba', ...waba })),
    ...entities.channels.map((channel) => ({
      pk: keys.channel(channel.wa_id),
      sk: SORT.channel,
      entity: 'channel',
      gsi1pk: CHANNELS_PARTITION,
      gsi1sk: keys.channelOrder(channel.client_id, channel.wa_id),
      ...channel,
    })),
    ...entities.memberships.map(({ client_id, waba_id }) => ({
      pk: keys.client(client_id),
      sk: keys.waba(waba_id),
      entity: 'client_waba',
      client_id,
      waba_id,
    })),
    ...clientChannelItems(entities.memberships, entities.channels),
    ...entities.campaigns.map((c) => ({ pk: keys.client(c.client_id), sk: keys.campaign(c.campaign_id), entity: 'campaign', ...c })),
    ...entities.contactChannels.map((c) => ({
      pk: keys.client(c.client_id),
      sk: keys.contactChannel(c.channel_id),
      entity: 'contact_channel',
      ...c,
    })),
    ...entities.records.map(recordItem),
    ...listingItemsOf(entities.records).items,
  ];
}

/** Writes the directory; every write is a full put by key, so running an import twice changes nothing. */
export async function importDirectory(table: ServiceTable, input: unknown): Promise<{ items: number }> {
  const file = parseDirectoryFile(input);
  const items = directoryItems(file);
  await putAll(table, items);
  return { items: items.length };
}
