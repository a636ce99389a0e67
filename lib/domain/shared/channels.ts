import type { Caller } from './caller.ts';
import type { DirectoryStore } from './ports.ts';
import type { ChannelRecord } from './directory.ts';
import { pageOf, resolvePage } from './paging.ts';
import { actingClient } from './tenancy.ts';

export const CHANNEL_FIELDS = [
  'wa_id',
  'client_id',
  'client_name',
  'waba_id',
  'waba_name',
  'status',
  'business_id',
  'business_name',
  'current_limit',
  'quality_rating',
  'phone_id',
  'phone_number_id',
  'is_on_biz_app',
  'phone_code',
  'phone_number',
  'create_at',
  'create_by',
  'register_at',
  'external_webhook',
] as const;
export const DEFAULT_CHANNEL_FIELDS = [
  'wa_id',
  'client_id',
  'client_name',
  'waba_id',
  'waba_name',
  'status',
  'business_id',
  'business_name',
] as const;
export const CHANNELS_PAGE = { size: 20, max: 100 };

export interface ChannelQuery {
  client_id?: number;
  wa_id?: string;
  waba_id?: string;
  status?: string;
  business_id?: string;
  business_name?: string;
  q?: string;
  deleted?: boolean;
  page?: number;
  size?: number;
  fields?: string;
}

/** Unknown names are dropped silently; none left (or none given) means the default set. */
export function selectChannelFields(csv: string | undefined): string[] {
  const known = new Set<string>(CHANNEL_FIELDS);
  const chosen = [
    ...new Set(
      (csv ?? '')
        .split(',')
        .map((f) => f.trim())
        .filter((f) => known.has(f)),
    ),
  ];
  return chosen.length > 0 ? chosen : [...DEFAULT_CHANNEL_FIELDS];
}

const contains = (value: string | undefined, needle: string) => (value ?? '').toLowerCase().includes(needle);

export function channelMatches(channel: ChannelRecord, query: ChannelQuery): boolean {
  if (Boolean(channel.deleted) !== Boolean(query.deleted)) return false;
  if (query.wa_id !== undefined && channel.wa_id !== query.wa_id) return false;
  if (query.waba_id !== undefined && channel.waba_id !== query.waba_id) return false;
  if (query.status !== undefined && channel.status !== query.status) return false;
  if (query.business_id !== undefined && channel.business_id !== query.business_id) return false;
  if (query.business_name !== undefined && !contains(channel.business_name, query.business_name.toLowerCase())) return false;
  if (query.q !== undefined) {
    const needle = query.q.toLowerCase();
    if (![channel.client_name, channel.waba_name, channel.wa_id, channel.waba_id].some((v) => contains(v, needle))) return false;
  }
  return true;
}

function project(channel: ChannelRecord, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = (channel as unknown as Record<string, unknown>)[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/**
 * GET /v1/client-msg-channels. Without BSP_CN a caller sees only its own client's channels; with it, any
 * client's, or all clients' when client_id is omitted.
 */
export async function listClientChannels(directory: DirectoryStore, caller: Caller, query: ChannelQuery) {
  const clientId = caller.isBsp ? query.client_id : actingClient(caller, query.client_id);
  const all = await directory.listChannels(clientId);
  const matching = all.filter((c) => channelMatches(c, query));
  const page = resolvePage(query, CHANNELS_PAGE);
  const fields = selectChannelFields(query.fields);
  return {
    data: pageOf(matching, page).map((c) => project(c, fields)),
    total: matching.length,
    page: page.page,
    page_size: page.size,
    fields: fields.join(','),
  };
}
