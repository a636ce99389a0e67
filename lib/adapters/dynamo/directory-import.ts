import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type DirectoryFile, directoryEntities, parseDirectoryFile } from '#lib/adapters/directory-file.ts';
import { CHANNELS_PARTITION, keys, SORT } from '#lib/adapters/dynamo/table.ts';
import { dynamo, tableName } from './client.ts';
import { assignmentKeyItem, recordItem } from './record-items.ts';
import { campaignHolders, entryItem } from './listing-items.ts';
import { listingEntryOf } from '#lib/domain/template-listing.ts';
import type { TemplateRecord } from '#lib/domain/template-record.ts';

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
    // Every channel of every WABA a client holds, under the client (decisions §1's hierarchy, precomputed).
    ...entities.memberships.flatMap(({ client_id, waba_id }) =>
      entities.channels
        .filter((channel) => channel.waba_id === waba_id)
        .map((channel) => ({ pk: keys.client(client_id), sk: keys.clientChannel(channel.wa_id), entity: 'client_channel', ...channel })),
    ),
    ...entities.campaigns.map((c) => ({ pk: keys.client(c.client_id), sk: keys.campaign(c.campaign_id), entity: 'campaign', ...c })),
    ...entities.contactChannels.map((c) => ({
      pk: keys.client(c.client_id),
      sk: keys.contactChannel(c.channel_id),
      entity: 'contact_channel',
      ...c,
    })),
    ...recordItems(entities.records),
    ...listingItems(entities.records),
  ];
}

/** The records and their assignment keys, each template's campaign holders carrying its campaign facets. */
function recordItems(records: TemplateRecord[]): Record<string, unknown>[] {
  const holders = new Set([...groupByAggregate(records).values()].flatMap((group) => [...campaignHolders(group)]));
  return records.flatMap((record) => [recordItem(record), assignmentKeyItem(record, holders.has(record.id))]);
}

function groupByAggregate(records: TemplateRecord[]) {
  const groups = new Map<string, TemplateRecord[]>();
  for (const r of records) {
    const key = keys.assignments(r.waba_id, r.meta_template.id, r.client_id);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return groups;
}

/** The imported records' listing entries (one per client and template) and each client's listing counts. */
function listingItems(records: TemplateRecord[]): Record<string, unknown>[] {
  const groups = groupByAggregate(records);
  const counts = new Map<string, { clientId: number; deleted: boolean; entries: number }>();
  const items = [...groups.values()].map((group) => {
    const entry = listingEntryOf(group);
    if (entry) {
      const key = `${entry.client_id}#${entry.deleted}`;
      const count = counts.get(key) ?? { clientId: entry.client_id, deleted: entry.deleted, entries: 0 };
      count.entries++;
      counts.set(key, count);
    }
    return entryItem({ wabaId: group[0].waba_id, templateId: group[0].meta_template.id, clientId: group[0].client_id }, entry, 1);
  });
  for (const c of counts.values()) {
    items.push({ pk: keys.client(c.clientId), sk: keys.listingCount(c.deleted), entity: 'listing_count', entries: c.entries });
  }
  return items;
}

/** Writes the directory; every write is a full put by key, so running an import twice changes nothing. */
export async function importDirectory(input: unknown): Promise<{ items: number }> {
  const file = parseDirectoryFile(input);
  const items = directoryItems(file);
  for (let i = 0; i < items.length; i += 25) {
    let pending: Record<string, unknown>[] | undefined = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error('Directory import: DynamoDB kept refusing writes');
      const result = await dynamo().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }));
      pending = result.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined;
      if (pending?.length) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
  return { items: items.length };
}
