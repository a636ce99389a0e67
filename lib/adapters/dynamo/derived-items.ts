import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { ChannelRecord } from '#lib/domain/shared/directory.ts';
import { listingEntryOf } from '#lib/domain/templates/template-listing.ts';
import type { TemplateRecord } from '#lib/domain/templates/template-record.ts';
import { putAll } from './batch-write.ts';
import type { ServiceTable } from './client.ts';
import { stripKeys } from './queries.ts';
import { activeIdsOf, campaignHolders, entryItem } from './templates/listing-items.ts';
import { assignmentKeyItem, byAggregate } from './templates/record-items.ts';
import { keys, SORT } from './table.ts';

/**
 * Items derived from others, for writers that hold whole sets of records at once (the directory import, the
 * rebuild below): per (client, template) its listing entry on the version item and its records' assignment
 * keys with their campaign facets, and each client's listing counts.
 */
export function listingItemsOf(records: TemplateRecord[], versionOf: (aggregate: string) => number = () => 1) {
  const groups = byAggregate(records);
  const items: Record<string, unknown>[] = [];
  const counts = new Map<string, { clientId: number; deleted: boolean; entries: number }>();
  for (const [key, group] of groups) {
    const entry = listingEntryOf(group);
    const first = group[0];
    items.push(
      entryItem(
        { wabaId: first.waba_id, templateId: first.meta_template.id, clientId: first.client_id },
        entry,
        versionOf(key),
        activeIdsOf(group),
      ),
    );
    if (entry) {
      const bucket = `${entry.client_id}#${entry.deleted}`;
      const count = counts.get(bucket) ?? { clientId: entry.client_id, deleted: entry.deleted, entries: 0 };
      count.entries++;
      counts.set(bucket, count);
    }
    const holders = campaignHolders(group);
    for (const record of group) items.push(assignmentKeyItem(record, holders.has(record.id)));
  }
  for (const c of counts.values()) {
    items.push({ pk: keys.client(c.clientId), sk: keys.listingCount(c.deleted), entity: 'listing_count', entries: c.entries });
  }
  return { items, entries: groups.size };
}

/** Every channel of every WABA a client holds, under the client: decisions §1's hierarchy, precomputed. */
export function clientChannelItems(memberships: { client_id: number; waba_id: string }[], channels: ChannelRecord[]) {
  return memberships.flatMap(({ client_id, waba_id }) =>
    channels
      .filter((channel) => channel.waba_id === waba_id)
      .map((channel) => ({ pk: keys.client(client_id), sk: keys.clientChannel(channel.wa_id), entity: 'client_channel', ...channel })),
  );
}

/**
 * Writes again every derived item from the table's records and directory (keeping each version): for a table
 * whose items were written before these existed. The local stack runs it once when it adds missing indexes to
 * kept data; it is the backfill for a deployed table too. It reads the whole table (a Scan), so it is a
 * migration, never a request's path.
 */
export async function rebuildDerivedItems(table: ServiceTable): Promise<{ entries: number; channels: number }> {
  const records: TemplateRecord[] = [];
  const versions = new Map<string, number>();
  const channels: ChannelRecord[] = [];
  const memberships: { client_id: number; waba_id: string }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(new ScanCommand({ TableName: table.name, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      if (item.entity === 'template_record') records.push(stripKeys<TemplateRecord>(item)!);
      else if (item.sk === SORT.assignmentsVersion) versions.set(String(item.pk), Number(item.version ?? 0));
      else if (item.entity === 'channel') channels.push(stripKeys<ChannelRecord>(item)!);
      else if (item.entity === 'client_waba') memberships.push({ client_id: Number(item.client_id), waba_id: String(item.waba_id) });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  const listing = listingItemsOf(records, (aggregate) => versions.get(aggregate) || 1);
  const channelItems = clientChannelItems(memberships, channels);
  await putAll(table, [...listing.items, ...channelItems]);
  return { entries: listing.entries, channels: channelItems.length };
}
