import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { checkDirectoryReferences, DirectoryFileSchema, type DirectoryFile } from '#lib/adapters/directory-file.ts';
import type { MetaTemplate, TemplateRecord } from '#lib/domain/template-record.ts';
import { issuesToDetails } from '#lib/schemas/issues.ts';
import { CHANNELS_PARTITION, keys, SORT } from '#lib/adapters/dynamo/table.ts';
import { dynamo, tableName } from './client.ts';
import { assignmentKeyItem, recordItem } from './record-items.ts';

export class DirectoryFileError extends Error {
  constructor(readonly problems: { path: string; message: string }[]) {
    super(`Directory file is invalid:\n${problems.map((p) => `  ${p.path || '(file)'}: ${p.message}`).join('\n')}`);
  }
}

/** Validates the whole file before anything is written: an invalid file changes nothing. */
export function parseDirectoryFile(input: unknown): DirectoryFile {
  const result = v.safeParse(DirectoryFileSchema, input);
  if (!result.success) throw new DirectoryFileError(issuesToDetails(result.issues));
  const problems = checkDirectoryReferences(result.output);
  if (problems.length > 0) throw new DirectoryFileError(problems);
  return result.output;
}

/** The items an import writes. Upstream state under a WABA (catalogs, templates) is not stored. */
export function directoryItems(file: DirectoryFile, now = new Date().toISOString()): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const client of file.clients) items.push({ pk: keys.client(client.client_id), sk: SORT.client, entity: 'client', ...client });
  const wabas = new Map(file.wabas.map((w) => [w.waba_id, w]));
  for (const { catalogs: _c, templates: _t, ...waba } of file.wabas) {
    items.push({ pk: keys.waba(waba.waba_id), sk: SORT.waba, entity: 'waba', ...waba });
  }
  const memberships = new Set<string>();
  for (const channel of file.channels) {
    items.push({
      pk: keys.channel(channel.wa_id),
      sk: SORT.channel,
      entity: 'channel',
      gsi1pk: CHANNELS_PARTITION,
      gsi1sk: keys.channelOrder(channel.client_id, channel.wa_id),
      ...channel,
    });
    memberships.add(`${channel.client_id}|${channel.waba_id}`);
  }
  for (const m of memberships) {
    const [clientId, wabaId] = m.split('|');
    items.push({
      pk: keys.client(Number(clientId)),
      sk: keys.waba(wabaId),
      entity: 'client_waba',
      client_id: Number(clientId),
      waba_id: wabaId,
    });
  }
  for (const c of file.campaigns) items.push({ pk: keys.client(c.client_id), sk: keys.campaign(c.campaign_id), entity: 'campaign', ...c });
  for (const c of file.contact_channels) {
    items.push({ pk: keys.client(c.client_id), sk: keys.contactChannel(c.channel_id), entity: 'contact_channel', ...c });
  }
  const campaigns = new Map(file.campaigns.map((c) => [c.campaign_id, c]));
  const contacts = new Map(file.contact_channels.map((c) => [c.channel_id, c]));
  for (const r of file.template_records) {
    const waba = wabas.get(r.waba_id)!;
    const upstream = waba.templates.find((t) => t.id === r.template_id)!;
    const { template_id: _id, channel_id, campaign_id, ...fields } = r;
    const contact = channel_id !== undefined ? contacts.get(channel_id)! : undefined;
    const campaign = campaign_id !== undefined ? campaigns.get(campaign_id)! : undefined;
    const record: TemplateRecord = {
      created_at: now,
      updated_at: now,
      ...fields,
      namespace: waba.namespace,
      meta_template: upstream as MetaTemplate,
      ...(contact && {
        channel: { channel_id: contact.channel_id, name: contact.name, did: contact.did, type: contact.type, waba_id: contact.waba_id },
      }),
      ...(campaign && { campaign: { campaign_id: campaign.campaign_id, campaign_name: campaign.campaign_name } }),
      syncMeta: { synced_at: now, source: 'sync' },
    };
    items.push(recordItem(record), assignmentKeyItem(record));
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
