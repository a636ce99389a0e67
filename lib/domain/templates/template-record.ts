/**
 * The local record of an upstream template for one client and at most one channel/campaign pair
 * (decisions §3). Siblings are a client's records of the same template; a record with no pair is the
 * client's Unassigned placeholder.
 */
export interface MetaTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: Record<string, unknown>[];
  parameter_format?: string;
  quality_score?: { score: string; date?: number };
  [field: string]: unknown;
}

export interface AssignedChannel {
  channel_id: number;
  name: string;
  did: string;
  type: string;
  waba_id: string;
}

export interface AssignedCampaign {
  campaign_id: number;
  campaign_name: string;
}

export interface SyncMeta {
  synced_at: string;
  source: 'create' | 'edit' | 'sync' | 'webhook';
}

/**
 * When the template's records last took a notification from the upstream, per kind (epoch ms of Meta's entry
 * time): an older notification arriving late is dropped (template-notifications.ts).
 */
export type NotifiedAt = Partial<Record<'template_status' | 'template_category' | 'template_quality', number>>;

/**
 * Meta's category changes of the template (`template_category_update`, decisions §34): the one it announced
 * (impending: the template becomes `correct_category` at `takes_effect_at`) and the last one it made (completed).
 * A send routes by `meta_template.category`, which only a completed change moves (platform-2027 §3: never route
 * on `correct_category`).
 */
export interface CategoryChange {
  impending?: {
    /** The category the template has while the change is announced. */
    category: string;
    correct_category: string;
    /** When Meta says the change happens (its `category_update_timestamp`), ISO 8601; absent when it gave none. */
    takes_effect_at?: string;
    /** Meta's entry time of the announcement. */
    announced_at: string;
  };
  completed?: { previous_category: string; new_category: string; at: string };
}

export interface TemplateRecord {
  id: string;
  client_id: number;
  waba_id: string;
  namespace: string;
  active: boolean;
  meta_template: MetaTemplate;
  channel?: AssignedChannel;
  campaign?: AssignedCampaign;
  isDirectMessage?: boolean;
  associatedFlow?: string | null;
  dynamicPricing?: boolean;
  headerType?: 'NONE' | 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT' | 'LOCATION';
  highQuality?: boolean;
  syncMeta?: SyncMeta;
  createdBy?: string;
  created_at: string;
  updated_at: string;
  deleted?: boolean;
  optimization_spec?: Record<string, unknown>;
  /** Asked on create or edit: URL buttons may be migrated to the dynamic (redirect-mapped) format. */
  allow_button_url_change?: boolean;
  notified_at?: NotifiedAt;
  category_change?: CategoryChange;
  /** Meta's pauses of the template, as its last status event left them (decisions §34); absent: never told. */
  pauses?: PauseSummary;
}

/** A template's pauses as the listing shows them (decisions §34). */
export interface PauseSummary {
  /** How many times Meta paused it for its quality (pacing pauses apart). */
  count: number;
  /** The last pauses, oldest first: when each began and when Meta's period ends, ISO 8601. */
  history: { paused_at: string; until: string; pacing?: true }[];
  /** Meta's next quality pause disables it (two pauses taken: the third disables, Meta's rule). */
  next_red_disables: boolean;
  /** Since when it is disabled, when it is. */
  disabled_at?: string;
}

export const UNASSIGNED = 'Unassigned';

export const isPlaceholder = (record: TemplateRecord) => !record.channel && !record.campaign;

/**
 * What a record holds of an assignment (decisions §11): a whole pair, half of one (records imported from older
 * data), or nothing (the placeholder). A client holds at most one record per slot of a template.
 */
export function assignmentSlot(record: TemplateRecord): string {
  if (isPlaceholder(record)) return UNASSIGNED;
  return `${record.channel?.channel_id ?? '-'}#${record.campaign?.campaign_id ?? '-'}`;
}

/**
 * The campaign a record lists its template under: its campaign's name, `Unassigned` for the placeholder, none
 * for a record with a channel and no campaign (it is neither assigned to a campaign nor the placeholder).
 */
export function listedCampaign(record: TemplateRecord): string | undefined {
  if (record.campaign) return record.campaign.campaign_name;
  return record.channel ? undefined : UNASSIGNED;
}

/** Record ids look like MongoDB ObjectIds: 24 lowercase hex characters, opaque and permanent. */
export function newRecordId(now = Date.now()): string {
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0');
  const random = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
  return (seconds + random).slice(0, 24);
}

/**
 * A record holding `meta`, the template as the upstream held it at `heldSince` (an edit's start, a read): status
 * news Meta dated before that moment describes an older template and is dropped when it arrives late.
 */
export function replacedRecord(
  r: TemplateRecord,
  meta: MetaTemplate,
  source: 'edit' | 'sync',
  now: string,
  heldSince: string,
): TemplateRecord {
  const since = Date.parse(heldSince);
  return {
    ...r,
    meta_template: meta,
    headerType: headerTypeOf(meta.components),
    syncMeta: { synced_at: now, source },
    updated_at: now,
    notified_at: { ...r.notified_at, template_status: Math.max(r.notified_at?.template_status ?? 0, since) },
  };
}

/** The media kind of a template's header, stored as the record's headerType. */
export function headerTypeOf(components: Record<string, unknown>[]): TemplateRecord['headerType'] {
  const header = components.find((c) => String(c?.type).toUpperCase() === 'HEADER');
  if (!header) return 'NONE';
  const format = String(header.format ?? 'TEXT').toUpperCase();
  return (['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const).find((f) => f === format) ?? 'NONE';
}
