import { InvalidRequest } from '../shared/errors.ts';
import type { AssignedChannel, CategoryChange, MetaTemplate, PauseSummary, TemplateRecord } from './template-record.ts';
import { listedCampaign } from './template-record.ts';
import { pageOf } from '../shared/paging.ts';

/** GET /v1/templates: one entry per template with its campaigns and channels (spec §5, decisions §3, §9). */
export const TEMPLATE_FIELDS = [
  'id',
  'waba_id',
  'client_id',
  'active',
  'namespace',
  'meta_template',
  'channel_campaigns',
  'category_change',
  'pauses',
] as const;
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
  /** Meta's announced and last completed category change (decisions §34), when it made or announced one. */
  category_change?: CategoryChange;
  /** Meta's pauses of the template (decisions §34); absent for a template never paused nor disabled. */
  pauses?: PauseSummary;
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

function channelIdList(value: string | undefined): number[] | undefined {
  const list = csv(value);
  if (!list) return undefined;
  if (!list.every((id) => /^[1-9][0-9]{0,14}$/.test(id))) {
    throw new InvalidRequest('channel_ids must be a comma-separated list of channel ids', [
      { path: 'channel_ids', message: 'must be whole numbers' },
    ]);
  }
  return list.map(Number);
}

/** What the listing shows and filters on, for one (client, template): its facets and its entry. */
export interface ListingFacets {
  name: string;
  language: string;
  status: string;
  category: string;
  quality: string;
  active: boolean;
  waba_id: string;
  template_id: string;
  /** Campaign names of the client's records; `Unassigned` for the placeholder. */
  campaigns: string[];
  channels: number[];
}

/**
 * The listing read model: one entry per (client, template), derived from the client's records of the template
 * and written in the same transaction as every change of them (decisions §9). `meta_template` is kept as
 * stored; it is cleaned when answered.
 */
export interface ListingEntry {
  client_id: number;
  waba_id: string;
  template_id: string;
  deleted: boolean;
  facets: ListingFacets;
  entry: TemplateEntry;
}

/** The (client, template) entry of these records (a client's records of one template); null when unlisted. */
export function listingEntryOf(records: TemplateRecord[]): ListingEntry | null {
  if (records.length === 0 || records.some((r) => r.isDirectMessage === true)) return null;
  const first = oldestRecord(records);
  const meta = first.meta_template;
  const active = records.some((r) => r.active);
  const campaigns = [...new Set(records.flatMap((r) => listedCampaign(r) ?? []))].sort();
  const channels = [...new Set(records.flatMap((r) => (r.channel ? [r.channel.channel_id] : [])))].sort((a, b) => a - b);
  return {
    client_id: first.client_id,
    waba_id: first.waba_id,
    template_id: meta.id,
    deleted: records.some((r) => r.deleted === true),
    facets: {
      name: meta.name,
      language: meta.language,
      status: String(meta.status ?? '').toUpperCase(),
      category: String(meta.category ?? '').toUpperCase(),
      quality: String(meta.quality_score?.score ?? '').toUpperCase(),
      active,
      waba_id: first.waba_id,
      template_id: meta.id,
      campaigns,
      channels,
    },
    entry: {
      id: first.id,
      waba_id: first.waba_id,
      client_id: first.client_id,
      active,
      namespace: first.namespace,
      meta_template: meta,
      channel_campaigns: channelCampaignGroups(records),
      ...(first.category_change && { category_change: first.category_change }),
      ...(first.pauses && { pauses: first.pauses }),
    },
  };
}

/** The listing's order: name, then language, then WABA and template (decisions §9). */
export const listingOrder = (e: Pick<ListingEntry, 'facets'>) =>
  [e.facets.name, e.facets.language, e.facets.waba_id, e.facets.template_id] as const;

export function compareListing(a: Pick<ListingEntry, 'facets'>, b: Pick<ListingEntry, 'facets'>) {
  const x = listingOrder(a);
  const y = listingOrder(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/** The filters of one listing request, parsed; the store picks the narrowest index they allow. */
export interface ListingCriteria {
  deleted: boolean;
  states?: string[];
  categories?: string[];
  language?: string;
  wabaId?: string;
  name?: string;
  search?: string;
  templateId?: string;
  active?: boolean;
  campaignName?: string;
  channelIds?: number[];
  qualities?: string[];
}

export function listingCriteria(query: TemplateQuery): ListingCriteria {
  const criteria: ListingCriteria = {
    deleted: Boolean(query.deleted),
    states: csv(query.state)?.map((s) => s.toUpperCase()),
    categories: csv(query.category)?.map((s) => s.toUpperCase()),
    language: query.lang,
    wabaId: query.wabaId,
    name: query.name,
    search: query.search?.toLowerCase(),
    templateId: query.template_meta_id,
    active: query.active,
    campaignName: query.campaign_name,
    channelIds: channelIdList(query.channel_ids),
    qualities: csv(query.quality_scores)?.map((s) => s.toUpperCase()),
  };
  return Object.fromEntries(Object.entries(criteria).filter(([, v]) => v !== undefined)) as ListingCriteria;
}

/** True when the criteria ask for nothing but the bucket (live or deleted): the total is the bucket's count. */
export const isUnfiltered = (criteria: ListingCriteria) => Object.keys(criteria).every((key) => key === 'deleted');

/** Whether an entry's facets meet the criteria (the bucket is the store's to choose). */
export function matchesListing(f: ListingFacets, c: ListingCriteria): boolean {
  if (c.states && !c.states.includes(f.status)) return false;
  if (c.categories && !c.categories.includes(f.category)) return false;
  if (c.language !== undefined && f.language !== c.language) return false;
  if (c.wabaId !== undefined && f.waba_id !== c.wabaId) return false;
  if (c.name !== undefined && f.name !== c.name) return false;
  if (c.search !== undefined && !f.name.toLowerCase().includes(c.search)) return false;
  if (c.templateId !== undefined && f.template_id !== c.templateId) return false;
  if (c.active !== undefined && f.active !== c.active) return false;
  if (c.qualities && !c.qualities.includes(f.quality)) return false;
  if (c.channelIds && !f.channels.some((id) => c.channelIds!.includes(id))) return false;
  if (c.campaignName !== undefined && !f.campaigns.includes(c.campaignName)) return false;
  return true;
}

/** A page of the listing from every entry of a client (the in-memory store's way; the same rules). */
export function pageOfEntries(entries: ListingEntry[], criteria: ListingCriteria, page: { offset: number; size: number }) {
  const matching = entries.filter((e) => e.deleted === criteria.deleted && matchesListing(e.facets, criteria)).sort(compareListing);
  return { entries: pageOf(matching, page), total: matching.length };
}

/** The answer of GET /v1/templates: the page's entries, cleaned and cut to the asked fields. */
export function listingAnswer(
  entries: ListingEntry[],
  total: number,
  page: { page: number; size: number },
  fieldsParam: string | undefined,
) {
  const known = new Set<string>(TEMPLATE_FIELDS);
  const chosen = (csv(fieldsParam) ?? []).filter((f) => known.has(f));
  const fields = chosen.length > 0 ? new Set(chosen) : known;
  const data = entries.map(({ entry }) => {
    const answer = { ...entry, meta_template: cleanMetaTemplate(entry.meta_template as MetaTemplate) };
    return Object.fromEntries(Object.entries(answer).filter(([key]) => fields.has(key)));
  });
  return { data, total, page: page.page, pageSize: page.size, paging: null };
}
