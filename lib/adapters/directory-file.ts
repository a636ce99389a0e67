import * as v from 'valibot';
import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from '#lib/domain/shared/directory.ts';
import type { MetaTemplate, TemplateRecord } from '#lib/domain/templates/template-record.ts';
import { isTimeZone } from '#lib/domain/shared/time-zone.ts';
import { issuesToDetails } from '#lib/schemas/issues.ts';

/**
 * The directory file (decisions §8): what the import command and the local stack's fixture read. Its entries
 * are the domain's directory entities (lib/domain/shared/directory.ts), plus the emulator's upstream side (catalogs,
 * products and templates of each WABA) and template records in their stored form.
 */
const text = v.string();
const positiveInt = v.pipe(v.number(), v.integer(), v.minValue(1));

export const ProductSchema = v.strictObject({
  id: text,
  name: text,
  retailer_id: text,
  image_urls: v.array(text),
  description: text,
  currency: text,
  price: text,
  url: text,
  category: text,
  unique_id: text,
});

export const CatalogSchema = v.strictObject({
  id: text,
  name: text,
  vertical: text,
  products: v.optional(v.array(ProductSchema), []),
});

/** An upstream template as the emulator holds it; loose because components are the upstream's own shapes. */
export const UpstreamTemplateSchema = v.looseObject({
  id: text,
  name: text,
  language: text,
  status: text,
  category: text,
  components: v.array(v.looseObject({ type: text })),
});

export const WabaSchema = v.strictObject({
  waba_id: text,
  waba_name: text,
  business_id: text,
  business_name: text,
  namespace: text,
  /** Where the upstream credentials of this WABA live (a Secrets Manager name in AWS). */
  credentials_ref: v.optional(text),
  /** Country of the WABA's numbers, used for the dynamic max price when a create omits it. */
  country: v.optional(v.pipe(text, v.regex(/^[A-Z]{2}$/))),
  catalogs: v.optional(v.array(CatalogSchema), []),
  templates: v.optional(v.array(UpstreamTemplateSchema), []),
});

export const ChannelSchema = v.strictObject({
  wa_id: v.pipe(text, v.minLength(1)),
  client_id: positiveInt,
  client_name: v.optional(text),
  waba_id: text,
  waba_name: v.optional(text),
  status: v.optional(text),
  business_id: v.optional(text),
  business_name: v.optional(text),
  current_limit: v.optional(text),
  quality_rating: v.optional(text),
  phone_id: v.optional(text),
  phone_number_id: v.optional(text),
  is_on_biz_app: v.optional(v.boolean()),
  phone_code: v.optional(text),
  phone_number: v.optional(text),
  create_at: v.optional(text),
  create_by: v.optional(text),
  register_at: v.optional(text),
  external_webhook: v.optional(text),
  deleted: v.optional(v.boolean()),
});

export const ClientSchema = v.strictObject({
  client_id: positiveInt,
  client_name: text,
  /** The zone its statement months close in (decisions §31), where its WABAs' zones differ: an IANA zone. */
  billing_timezone: v.optional(
    v.pipe(
      text,
      v.check(isTimeZone, (issue) => `unknown time zone ${JSON.stringify(issue.input)}: an IANA zone is expected`),
    ),
  ),
});
export const CampaignSchema = v.strictObject({ campaign_id: positiveInt, campaign_name: text, client_id: positiveInt });
export const ContactChannelSchema = v.strictObject({
  channel_id: positiveInt,
  name: v.optional(text, ''),
  did: text,
  type: v.optional(text, 'MSGCHAN'),
  waba_id: text,
  client_id: positiveInt,
});

export const FixtureRecordSchema = v.strictObject({
  id: v.pipe(text, v.regex(/^[0-9a-f]{24}$/, 'must be 24 lowercase hex characters')),
  client_id: positiveInt,
  waba_id: text,
  template_id: text,
  channel_id: v.optional(positiveInt),
  campaign_id: v.optional(positiveInt),
  active: v.optional(v.boolean(), false),
  isDirectMessage: v.optional(v.boolean()),
  associatedFlow: v.optional(v.nullable(text)),
  dynamicPricing: v.optional(v.boolean()),
  headerType: v.optional(v.picklist(['NONE', 'TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'])),
  highQuality: v.optional(v.boolean()),
  createdBy: v.optional(text),
  created_at: v.optional(text),
  updated_at: v.optional(text),
  deleted: v.optional(v.boolean()),
});

export const DirectoryFileSchema = v.strictObject({
  clients: v.optional(v.array(ClientSchema), []),
  wabas: v.optional(v.array(WabaSchema), []),
  channels: v.optional(v.array(ChannelSchema), []),
  campaigns: v.optional(v.array(CampaignSchema), []),
  contact_channels: v.optional(v.array(ContactChannelSchema), []),
  template_records: v.optional(v.array(FixtureRecordSchema), []),
});

export type DirectoryFile = v.InferOutput<typeof DirectoryFileSchema>;
export type WabaEntry = v.InferOutput<typeof WabaSchema>;
export type Product = v.InferOutput<typeof ProductSchema>;
export type UpstreamTemplate = v.InferOutput<typeof UpstreamTemplateSchema>;

// The file's entries are the domain's entities: these fail to compile when the two drift apart.
type Assignable<T extends U, U> = T;
export type _DirectoryEntriesMatchTheDomain = [
  Assignable<v.InferOutput<typeof ChannelSchema>, ChannelRecord>,
  Assignable<Omit<WabaEntry, 'catalogs' | 'templates'>, Waba>,
  Assignable<v.InferOutput<typeof ClientSchema>, Client>,
  Assignable<v.InferOutput<typeof CampaignSchema>, Campaign>,
  Assignable<v.InferOutput<typeof ContactChannelSchema>, ContactChannel>,
];

type Problem = { path: string; message: string };
type FixtureRecord = v.InferOutput<typeof FixtureRecordSchema>;

/**
 * Cross-entry rules a schema cannot express: every reference points at an entry of the same file (or,
 * for clients, at least is consistent), and ids are unique. Returns one message per bad entry.
 */
export function checkDirectoryReferences(file: DirectoryFile): Problem[] {
  const known = knownEntries(file);
  return [...duplicateEntries(file), ...directoryReferenceProblems(file, known), ...templateRecordProblems(file, known)];
}

function duplicateEntries(file: DirectoryFile): Problem[] {
  return [
    ...duplicates(file.clients, (c) => String(c.client_id), 'clients'),
    ...duplicates(file.wabas, (w) => w.waba_id, 'wabas'),
    ...duplicates(file.channels, (c) => c.wa_id, 'channels'),
    ...duplicates(file.campaigns, (c) => String(c.campaign_id), 'campaigns'),
    ...duplicates(file.contact_channels, (c) => String(c.channel_id), 'contact_channels'),
    ...duplicates(file.template_records, (r) => r.id, 'template_records'),
  ];
}

/** Every entry of a list whose key an earlier entry has already. */
function duplicates<T>(list: T[], key: (item: T) => string, name: string): Problem[] {
  const seen = new Set<string>();
  return list.flatMap((item, i) => {
    const k = key(item);
    const repeated = seen.has(k);
    seen.add(k);
    return repeated ? [{ path: `${name}[${i}]`, message: `duplicate ${name} entry ${k}` }] : [];
  });
}

/** The checks of a reference to a client or a WABA: a problem when the file holds no such entry. */
function knownEntries(file: DirectoryFile) {
  const clientIds = new Set(file.clients.map((c) => c.client_id));
  const wabaIds = new Set(file.wabas.map((w) => w.waba_id));
  return {
    client: (id: number, path: string): Problem[] => (clientIds.has(id) ? [] : [{ path, message: `unknown client_id ${id}` }]),
    waba: (id: string, path: string): Problem[] => (wabaIds.has(id) ? [] : [{ path, message: `unknown waba_id ${id}` }]),
  };
}

type KnownEntries = ReturnType<typeof knownEntries>;

/** The clients, WABAs and numbers the channels, campaigns and contact channels name. */
function directoryReferenceProblems(file: DirectoryFile, known: KnownEntries): Problem[] {
  const channelIds = new Set(file.channels.map((c) => c.wa_id));
  return [
    ...file.channels.flatMap((c, i) => [
      ...known.client(c.client_id, `channels[${i}].client_id`),
      ...known.waba(c.waba_id, `channels[${i}].waba_id`),
    ]),
    ...file.campaigns.flatMap((c, i) => known.client(c.client_id, `campaigns[${i}].client_id`)),
    ...file.contact_channels.flatMap((c, i) => [
      ...known.client(c.client_id, `contact_channels[${i}].client_id`),
      ...known.waba(c.waba_id, `contact_channels[${i}].waba_id`),
      ...(channelIds.has(c.did) ? [] : [{ path: `contact_channels[${i}].did`, message: `unknown did ${c.did}` }]),
    ]),
  ];
}

/** Each template record's client, upstream template, slot and assignment. */
function templateRecordProblems(file: DirectoryFile, known: KnownEntries): Problem[] {
  const wabas = new Map(file.wabas.map((w) => [w.waba_id, w]));
  const campaigns = new Map(file.campaigns.map((c) => [c.campaign_id, c]));
  const contacts = new Map(file.contact_channels.map((c) => [c.channel_id, c]));
  const slots = new Map<string, Set<string>>();
  return file.template_records.flatMap((r, i) => {
    const path = `template_records[${i}]`;
    return [
      ...known.client(r.client_id, `${path}.client_id`),
      ...upstreamTemplateProblems(r, wabas.get(r.waba_id), path),
      ...slotProblems(r, slots, path),
      ...(r.channel_id !== undefined && contacts.get(r.channel_id)?.client_id !== r.client_id
        ? [{ path: `${path}.channel_id`, message: `channel ${r.channel_id} is not a channel of client ${r.client_id}` }]
        : []),
      ...(r.campaign_id !== undefined && campaigns.get(r.campaign_id)?.client_id !== r.client_id
        ? [{ path: `${path}.campaign_id`, message: `campaign ${r.campaign_id} is not a campaign of client ${r.client_id}` }]
        : []),
    ];
  });
}

/** The record's WABA is in the file, and its template among the WABA's. */
function upstreamTemplateProblems(r: FixtureRecord, waba: WabaEntry | undefined, path: string): Problem[] {
  if (!waba) return [{ path: `${path}.waba_id`, message: `unknown waba_id ${r.waba_id}` }];
  if (waba.templates.some((t) => t.id === r.template_id)) return [];
  return [{ path: `${path}.template_id`, message: `unknown template ${r.template_id} in WABA ${r.waba_id}` }];
}

/**
 * A record may hold half a pair (decisions §11); each (client, template) holds one record per slot, and
 * either assignment records or one placeholder. `slots` holds the slots of the records before this one.
 */
function slotProblems(r: FixtureRecord, slots: Map<string, Set<string>>, path: string): Problem[] {
  const slot = r.channel_id === undefined && r.campaign_id === undefined ? 'placeholder' : `${r.channel_id ?? '-'}#${r.campaign_id ?? '-'}`;
  const aggregate = `${r.client_id}#${r.waba_id}#${r.template_id}`;
  const held = slots.get(aggregate) ?? new Set<string>();
  const problems: Problem[] = [];
  if (held.has(slot)) problems.push({ path, message: `client ${r.client_id} has this assignment of template ${r.template_id} twice` });
  else if (held.size > 0 && (slot === 'placeholder' || held.has('placeholder')))
    problems.push({ path, message: `client ${r.client_id} has both assignments and the placeholder of template ${r.template_id}` });
  slots.set(aggregate, held.add(slot));
  return problems;
}

export class DirectoryFileError extends Error {
  constructor(readonly problems: Problem[]) {
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

/** The domain's entities a directory file describes: what an import stores, in the domain's shapes. */
export interface DirectoryEntities {
  clients: Client[];
  wabas: Waba[];
  channels: ChannelRecord[];
  /** Which clients hold which WABAs (from their channels). */
  memberships: { client_id: number; waba_id: string }[];
  campaigns: Campaign[];
  contactChannels: ContactChannel[];
  records: TemplateRecord[];
}

export function directoryEntities(file: DirectoryFile, now = new Date().toISOString()): DirectoryEntities {
  const wabaEntries = new Map(file.wabas.map((w) => [w.waba_id, w]));
  const memberships = new Map<string, { client_id: number; waba_id: string }>();
  for (const channel of file.channels)
    memberships.set(`${channel.client_id}|${channel.waba_id}`, { client_id: channel.client_id, waba_id: channel.waba_id });
  const campaigns = new Map(file.campaigns.map((c) => [c.campaign_id, c]));
  const contacts = new Map(file.contact_channels.map((c) => [c.channel_id, c]));
  const records = file.template_records.map((r): TemplateRecord => {
    const waba = wabaEntries.get(r.waba_id)!;
    const upstream = waba.templates.find((t) => t.id === r.template_id)!;
    const { template_id: _id, channel_id, campaign_id, ...fields } = r;
    const contact = channel_id !== undefined ? contacts.get(channel_id)! : undefined;
    const campaign = campaign_id !== undefined ? campaigns.get(campaign_id)! : undefined;
    return {
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
  });
  return {
    clients: file.clients,
    wabas: file.wabas.map(({ catalogs: _c, templates: _t, ...waba }) => waba),
    channels: file.channels,
    memberships: [...memberships.values()],
    campaigns: file.campaigns,
    contactChannels: file.contact_channels,
    records,
  };
}
