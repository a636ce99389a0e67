import { InvalidRequest } from './errors.ts';
import type { AssignedChannel, MetaTemplate, TemplateRecord } from './template-record.ts';
import { UNASSIGNED } from './template-record.ts';
import { pageOf, resolvePage } from './paging.ts';

/** GET /v1/templates: one entry per template with its campaigns and channels (spec §5, decisions §3, §9). */
export const TEMPLATE_FIELDS = ['id', 'waba_id', 'client_id', 'active', 'namespace', 'meta_template', 'channel_campaigns'] as const;
export const TEMPLATES_PAGE = { size: 20, max: 100 };

export interface TemplateQuery {
  state?: string;
  search?: string;
  category?: string;
  lang?: string;
  /** The WABA of the `did` filter, resolved by the caller. */
  wabaId?: string;
  name?: string;
  template_meta_id?: string;
  active?: boolean;
  deleted?: boolean;
  campaign_name?: string;
  fields?: string;
  size?: number;
  page?: number;
  channel_ids?: string;
  quality_scores?: string;
}

export interface ChannelCampaignGroup {
  campaign_id: number;
  campaign_name: string;
  channels: (Omit<AssignedChannel, 'name'> & { name?: string })[];
}

export interface TemplateEntry {
  id: string;
  waba_id: string;
  client_id: number;
  active: boolean;
  namespace: string;
  meta_template: Record<string, unknown>;
  channel_campaigns: ChannelCampaignGroup[];
}

const ALWAYS_KEPT = new Set(['id', 'name', 'language', 'status', 'category', 'components']);

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

/** Empty upstream fields are omitted (spec: meta_template object), recursively inside components too. */
export function cleanMetaTemplate(meta: MetaTemplate): Record<string, unknown> {
  const clean = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(clean);
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const cleaned = clean(v);
        if (!isEmpty(cleaned)) out[k] = cleaned;
      }
      return out;
    }
    return value;
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    const cleaned = clean(value);
    if (ALWAYS_KEPT.has(key) || !isEmpty(cleaned)) out[key] = cleaned ?? value;
  }
  return out;
}

/** Campaign groups of a set of records; the placeholder is left out; a channel's empty name is omitted. */
export function channelCampaignGroups(records: TemplateRecord[]): ChannelCampaignGroup[] {
  const groups = new Map<number, ChannelCampaignGroup>();
  for (const record of records) {
    if (!record.channel || !record.campaign) continue;
    let group = groups.get(record.campaign.campaign_id);
    if (!group) {
      group = { campaign_id: record.campaign.campaign_id, campaign_name: record.campaign.campaign_name, channels: [] };
      groups.set(record.campaign.campaign_id, group);
    }
    if (group.channels.some((c) => c.channel_id === record.channel!.channel_id)) continue;
    const { name, ...channel } = record.channel;
    group.channels.push(
      name ? { channel_id: channel.channel_id, name, did: channel.did, type: channel.type, waba_id: channel.waba_id } : channel,
    );
  }
  return [...groups.values()].sort((a, b) => a.campaign_id - b.campaign_id);
}

/** The oldest record names the template's entry (decisions §3). */
export function oldestRecord(records: TemplateRecord[]): TemplateRecord {
  return [...records].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))[0];
}

const csv = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);

function channelIdSet(value: string | undefined): Set<number> | undefined {
  const list = csv(value);
  if (!list) return undefined;
  if (!list.every((id) => /^[1-9][0-9]{0,14}$/.test(id))) {
    throw new InvalidRequest('channel_ids must be a comma-separated list of channel ids', [
      { path: 'channel_ids', message: 'must be whole numbers' },
    ]);
  }
  return new Set(list.map(Number));
}

interface TemplateGroup {
  records: TemplateRecord[];
  meta: MetaTemplate;
}

/** Groups a client's records, already in listing order, per upstream template. */
function groupByTemplate(records: TemplateRecord[]): TemplateGroup[] {
  const groups = new Map<string, TemplateGroup>();
  for (const record of records) {
    const key = `${record.waba_id}#${record.meta_template.id}`;
    const group = groups.get(key);
    if (group) group.records.push(record);
    else groups.set(key, { records: [record], meta: record.meta_template });
  }
  return [...groups.values()];
}

export function listTemplateEntries(records: TemplateRecord[], query: TemplateQuery) {
  const states = csv(query.state)?.map((s) => s.toUpperCase());
  const categories = csv(query.category)?.map((s) => s.toUpperCase());
  const qualities = csv(query.quality_scores)?.map((s) => s.toUpperCase());
  const channelIds = channelIdSet(query.channel_ids);
  const search = query.search?.toLowerCase();
  const matching = groupByTemplate(records).filter(({ records: group, meta }) => {
    if (group.some((r) => r.isDirectMessage === true)) return false;
    if (group.some((r) => r.deleted === true) !== Boolean(query.deleted)) return false;
    if (states && !states.includes(String(meta.status).toUpperCase())) return false;
    if (categories && !categories.includes(String(meta.category).toUpperCase())) return false;
    if (query.lang !== undefined && meta.language !== query.lang) return false;
    if (query.wabaId !== undefined && group[0].waba_id !== query.wabaId) return false;
    if (query.name !== undefined && meta.name !== query.name) return false;
    if (search !== undefined && !meta.name.toLowerCase().includes(search)) return false;
    if (query.template_meta_id !== undefined && meta.id !== query.template_meta_id) return false;
    if (query.active !== undefined && group.some((r) => r.active) !== query.active) return false;
    if (qualities && !qualities.includes(String(meta.quality_score?.score ?? '').toUpperCase())) return false;
    if (channelIds && !group.some((r) => r.channel && channelIds.has(r.channel.channel_id))) return false;
    if (query.campaign_name !== undefined) {
      const wanted = query.campaign_name;
      const has = group.some((r) => (r.campaign ? r.campaign.campaign_name === wanted : wanted === UNASSIGNED));
      if (!has) return false;
    }
    return true;
  });
  const page = resolvePage({ page: query.page, size: query.size }, TEMPLATES_PAGE);
  const known = new Set<string>(TEMPLATE_FIELDS);
  const chosen = (csv(query.fields) ?? []).filter((f) => known.has(f));
  const fields = chosen.length > 0 ? new Set(chosen) : known;
  const data = pageOf(matching, page).map(({ records: group, meta }) => {
    const first = oldestRecord(group);
    const entry: TemplateEntry = {
      id: first.id,
      waba_id: first.waba_id,
      client_id: first.client_id,
      active: group.some((r) => r.active),
      namespace: first.namespace,
      meta_template: cleanMetaTemplate(meta),
      channel_campaigns: channelCampaignGroups(group),
    };
    return Object.fromEntries(Object.entries(entry).filter(([key]) => fields.has(key)));
  });
  return { data, total: matching.length, page: page.page, pageSize: page.size, paging: null };
}
