import type { Caller } from '../shared/caller.ts';
import { Conflict, InvalidRequest, UpstreamRejected, UpstreamUnavailable } from '../shared/errors.ts';
import type { ServiceEvent } from '../webhooks/events.ts';
import { templateEvent } from './template-events.ts';
import { AssignmentConflict, type TemplateAssignments, type TemplateListing, type TemplateRecords } from './ports.ts';
import type { CreatedTemplate, TemplateDraftForUpstream, TemplateUpstream } from './ports.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import type { EventPublisher, OutboxStore } from '../webhooks/ports.ts';
import { resolvePairs, type Pair } from './assignments.ts';
import { MEDIA_TYPES, type MediaFile, type MediaPorts, resolveMediaHandle } from './media.ts';
import { publishSaved } from '../webhooks/outbox.ts';
import type { Log } from '../shared/log.ts';
import { resolveProvider } from '../shared/provider.ts';
import { headerTypeOf, isPlaceholder, newRecordId, type MetaTemplate, type TemplateRecord } from './template-record.ts';
import { authenticationComponents } from './rules/authentication.ts';
import { normalizeComponents } from './rules/changes.ts';
import { CATEGORIES, type Category } from './rules/components.ts';
import { checkLanguage, checkName, checkTemplateDraft, type DraftFacts } from './rules/draft.ts';
import { type DryRunResult, dryRun, type ReviewWarning, reviewWarnings } from './rules/review.ts';
import { actingClient } from '../shared/tenancy.ts';
import { checkLibraryTemplate, type LibraryRequest, libraryComponents, libraryInputs, madeFromLibrary } from './library-template.ts';

/** POST /v1/templates/{did} (spec §7, decisions §3, §4, §6): the body as the schema delivers it; components or a library name. */
export interface CreateTemplateInput extends LibraryRequest {
  name: string;
  language: string;
  category: string;
  components?: Record<string, unknown>[];
  parameter_format?: string;
  client_id?: number;
  channel_campaigns?: { assignments: Pair[] };
  optimization_spec?: Record<string, unknown>;
  allow_button_url_change?: boolean;
  allow_category_change?: boolean;
  add_security_recommendation?: boolean;
  code_expiration_minutes?: number;
  message_send_ttl_seconds?: number;
  country?: string;
  header_source?: string;
  header_handle?: string;
}

export interface CreateDeps {
  directory: DirectoryStore;
  records: TemplateRecords;
  listing: TemplateListing;
  assignments: TemplateAssignments;
  outbox: OutboxStore;
  publisher: EventPublisher;
  upstream: TemplateUpstream;
  media: MediaPorts;
  log: Log;
  now?: () => string;
}

/** Calling codes to countries, for the dynamic max price when neither the body nor the WABA names one. */
const CALLING_CODES: [string, string][] = [
  ['52', 'MX'],
  ['55', 'BR'],
  ['57', 'CO'],
  ['54', 'AR'],
  ['56', 'CL'],
  ['51', 'PE'],
  ['593', 'EC'],
  ['58', 'VE'],
  ['502', 'GT'],
  ['503', 'SV'],
  ['506', 'CR'],
  ['507', 'PA'],
  ['34', 'ES'],
  ['44', 'GB'],
  ['49', 'DE'],
  ['33', 'FR'],
  ['39', 'IT'],
  ['91', 'IN'],
  ['62', 'ID'],
  ['234', 'NG'],
  ['27', 'ZA'],
  ['1', 'US'],
];

export const TEMPLATE_INVALID = 'Template validation failed';
export const DUPLICATE_TEMPLATE = 'A template with this name and language already exists in the WABA';

/** Stands in for the upstream id while the record is checked; as long as any id Graph gives. */
const PROVISIONAL_ID = '0'.repeat(24);

/**
 * Creates the template upstream. When the answer is lost (a timeout after Graph may have made it) or Graph
 * says the name and language exist, the upstream is asked: a template there with this draft's category and
 * components is the one this request (or its earlier try) made, and is adopted, so a retried create answers as
 * the first would have and never leaves an upstream template without its record.
 */
async function createUpstream(deps: CreateDeps, wabaId: string, draft: TemplateDraftForUpstream): Promise<CreatedTemplate> {
  try {
    return await deps.upstream.createTemplate(wabaId, draft);
  } catch (error) {
    const ambiguous = error instanceof UpstreamUnavailable;
    const duplicate = error instanceof UpstreamRejected && error.reason === 'duplicate_template';
    if (!ambiguous && !duplicate) throw error;
    const existing = await deps.upstream.findTemplate(wabaId, draft.name, draft.language).catch(() => null);
    const same =
      existing &&
      (draft.library
        ? madeFromLibrary(existing, draft)
        : existing.category === draft.category && normalizeComponents(existing.components) === normalizeComponents(draft.components));
    if (existing && same) {
      deps.log.info('create reconciled with the upstream template it made', {
        template_id: existing.id,
        after: ambiguous ? 'lost answer' : 'duplicate',
      });
      return { id: existing.id, status: existing.status, category: existing.category };
    }
    if (duplicate) throw new Conflict(DUPLICATE_TEMPLATE);
    throw error;
  }
}

export function countryOfDid(did: string): string | undefined {
  const digits = did.replace(/\D/g, '');
  return CALLING_CODES.filter(([code]) => digits.startsWith(code)).sort((a, b) => b[0].length - a[0].length)[0]?.[1];
}

function checkBody(input: CreateTemplateInput, hasFile: boolean) {
  const category = input.category.toUpperCase() as Category;
  const problems = [...checkName(input.name), ...checkLanguage(input.language)];
  if (!CATEGORIES.includes(category)) problems.push({ path: 'category', message: 'must be MARKETING, UTILITY or AUTHENTICATION' });
  if (input.parameter_format !== undefined && input.parameter_format.toUpperCase() !== 'POSITIONAL') {
    problems.push({ path: 'parameter_format', message: 'only positional is supported; named is not' });
  }
  if (problems.length > 0 || !CATEGORIES.includes(category)) return { category, problems, facts: undefined };
  if (input.library_template_name !== undefined) {
    return { category, problems: checkLibraryTemplate(input, category, hasFile), facts: { hasMediaHeader: false, hasHandle: false } };
  }
  const { problems: componentProblems, facts } = checkTemplateDraft({
    category,
    components: input.components ?? [],
    message_send_ttl_seconds: input.message_send_ttl_seconds,
    add_security_recommendation: input.add_security_recommendation,
    code_expiration_minutes: input.code_expiration_minutes,
  });
  return { category, problems: [...problems, ...componentProblems], facts };
}

type Provider = Awaited<ReturnType<typeof resolveProvider>>;

/**
 * Every rule, checked before anything reaches the upstream, and the records built and checked against what
 * the store can hold.
 */
async function prepare(deps: CreateDeps, caller: Caller, input: CreateInput, clientId: number, provider: Provider, simulated: boolean) {
  const { body } = input;
  const { category, problems, facts } = checkBody(body, input.file !== undefined);
  if (problems.length > 0 || !facts) throw new InvalidRequest(TEMPLATE_INVALID, problems);
  const pairs = await resolvePairs(deps, clientId, provider.wabaId, body.channel_campaigns?.assignments ?? []);
  const library = libraryInputs(body);
  const components = library ? [] : await componentsToSubmit(deps, input, category, facts, simulated);
  const country = body.country ?? provider.country ?? countryOfDid(input.did);
  const optimization = body.optimization_spec ? { ...body.optimization_spec, ...(country && { country }) } : undefined;
  const draft: TemplateDraftForUpstream = {
    name: body.name,
    language: body.language,
    category,
    components,
    parameter_format: 'POSITIONAL',
    ...(library && { library }),
    ...(body.message_send_ttl_seconds !== undefined && { message_send_ttl_seconds: body.message_send_ttl_seconds }),
    ...(body.allow_category_change !== undefined && { allow_category_change: body.allow_category_change }),
    ...(optimization && { optimization }),
  };
  // The records are built, and checked against what the store can hold, before the upstream makes anything.
  const now = deps.now?.() ?? new Date().toISOString();
  const meta = provisionalMeta(body, category, components);
  const base = firstRecord({ caller, clientId, provider, body, meta, optimization, now });
  const unstorable = deps.records.storageProblem(base);
  if (unstorable) throw new InvalidRequest(TEMPLATE_INVALID, [unstorable]);
  return { draft, meta, base, pairs, category, now };
}

/** The body's components as the upstream gets them: the media header's handle put in, and an OTP's presets. */
async function componentsToSubmit(
  deps: CreateDeps,
  input: CreateInput,
  category: Category,
  facts: DraftFacts,
  simulated: boolean,
): Promise<Record<string, unknown>[]> {
  const { body } = input;
  const components = structuredClone(body.components ?? []);
  // A dry run checks the media source (its address too) but never downloads or uploads: the stand-ins answer
  // with the header's own type and a handle.
  const format = facts.headerFormat ?? '';
  const dryMedia: MediaPorts = {
    ...deps.media,
    download: async () => ({ bytes: new Uint8Array([0]), contentType: MEDIA_TYPES[format]?.[0] ?? '' }),
    upload: async () => 'dry-run',
  };
  const handle = await resolveMediaHandle(
    simulated ? dryMedia : deps.media,
    { header_source: body.header_source, header_handle: body.header_handle, file: input.file },
    { format: facts.headerFormat, isMedia: facts.hasMediaHeader, hasHandle: facts.hasHandle },
  );
  if (handle !== undefined && facts.headerIndex !== undefined) {
    const header = components[facts.headerIndex];
    header.example = { ...((header.example as Record<string, unknown>) ?? {}), header_handle: [handle] };
  }
  return category === 'AUTHENTICATION' ? authenticationComponents(components, body) : components;
}

/** The template as the record holds it until the upstream answers with its id and status. */
function provisionalMeta(body: CreateTemplateInput, category: Category, components: Record<string, unknown>[]): MetaTemplate {
  return {
    id: PROVISIONAL_ID,
    name: body.name,
    language: body.language,
    status: 'PENDING',
    category,
    components,
    parameter_format: 'POSITIONAL',
    ...(body.library_template_name !== undefined && { library_template_name: body.library_template_name }),
    ...(body.message_send_ttl_seconds !== undefined && { message_send_ttl_seconds: body.message_send_ttl_seconds }),
  };
}

/** The client's first record of the new template, inactive and with no assignment yet. */
function firstRecord(of: {
  caller: Caller;
  clientId: number;
  provider: Provider;
  body: CreateTemplateInput;
  meta: MetaTemplate;
  optimization: Record<string, unknown> | undefined;
  now: string;
}): TemplateRecord {
  const { caller, clientId, provider, body, meta, optimization, now } = of;
  return {
    id: newRecordId(),
    client_id: clientId,
    waba_id: provider.wabaId,
    namespace: provider.namespace,
    active: false,
    meta_template: meta,
    isDirectMessage: false,
    associatedFlow: null,
    dynamicPricing: optimization !== undefined,
    headerType: headerTypeOf(meta.components),
    highQuality: false,
    syncMeta: { synced_at: now, source: 'create' },
    createdBy: caller.sub,
    created_at: now,
    updated_at: now,
    ...(optimization && { optimization_spec: optimization }),
    ...(body.allow_button_url_change !== undefined && { allow_button_url_change: body.allow_button_url_change }),
  };
}

export interface CreateInput {
  did: string;
  queryClientId?: number;
  body: CreateTemplateInput;
  file?: MediaFile;
  /** The request's id: the event carries it to the webhook delivery (decisions §15). */
  correlationId?: string;
}

/** The acting client, the DID's provider and the review warnings: what both a create and its dry run start with. */
async function begin(deps: CreateDeps, caller: Caller, input: CreateInput) {
  const { body } = input;
  if (body.client_id !== undefined && input.queryClientId !== undefined && body.client_id !== input.queryClientId) {
    throw new InvalidRequest('client_id in the query and the body differ', [{ path: 'client_id', message: 'differs from the query' }]);
  }
  const clientId = actingClient(caller, body.client_id ?? input.queryClientId);
  const provider = await resolveProvider(deps, clientId, input.did);
  // A library template skips Meta's review: nothing to predict of it.
  const warnings = body.components
    ? reviewWarnings(body.components, await wabaWordings(deps.listing, clientId, provider.wabaId, body))
    : [];
  return { clientId, provider, warnings };
}

/** The templates of the WABA the client has records of, but this one: to compare wordings with. */
export async function wabaWordings(
  listing: Pick<TemplateListing, 'templatesOfWaba'>,
  clientId: number,
  wabaId: string,
  self: { name: string; language: string },
) {
  const templates = await listing.templatesOfWaba(clientId, wabaId);
  return templates.filter((meta) => !(meta.name === self.name && meta.language === self.language));
}

/** A dry run: the same checks as a create, in the same order, answering with what a create would refuse. */
export async function dryRunCreate(deps: CreateDeps, caller: Caller, input: CreateInput): Promise<DryRunResult> {
  const { clientId, provider, warnings } = await begin(deps, caller, input);
  return dryRun(() => prepare(deps, caller, input, clientId, provider, true), warnings);
}

export async function createTemplate(
  deps: CreateDeps,
  caller: Caller,
  input: CreateInput,
): Promise<CreatedTemplate & { review_warnings?: ReviewWarning[] }> {
  const { clientId, provider, warnings } = await begin(deps, caller, input);
  const { draft, meta, base, pairs, category, now } = await prepare(deps, caller, input, clientId, provider, false);
  const created = await createUpstream(deps, provider.wabaId, draft);
  Object.assign(meta, { id: String(created.id), status: created.status, category: created.category ?? category });
  if (draft.library) {
    meta.components = await libraryComponents(deps, provider.wabaId, draft);
    base.headerType = headerTypeOf(meta.components);
  }
  const records =
    pairs.length === 0
      ? [base]
      : pairs.map(({ channel, campaign }, i) => ({ ...base, id: i === 0 ? base.id : newRecordId(), channel, campaign }));
  const event = templateEvent('template.created', records[0], now, input.correlationId);
  try {
    await deps.records.register(records, [event]);
  } catch (error) {
    if (!(error instanceof AssignmentConflict)) throw error;
    await takeOverSyncPlaceholder(deps, records, event);
  }
  await publishSaved(deps, [event]);
  return { ...created, ...(warnings.length > 0 && { review_warnings: warnings }) };
}

/**
 * The client holds records of the template already. When that is only the placeholder a concurrent sync made
 * for the template this request just created, the request's records take its place (the placeholder becomes
 * the first one, in one write conditioned on the version read). Anything else means the name and language
 * were this client's before: 409.
 */
async function takeOverSyncPlaceholder(deps: CreateDeps, records: TemplateRecord[], event: ServiceEvent) {
  const [first] = records;
  const held = await deps.assignments.readAssignments(first.waba_id, first.meta_template.id, first.client_id);
  const placeholder =
    held.records.length === 1 && held.records[0].createdBy === 'sync' && isPlaceholder(held.records[0]) ? held.records[0] : undefined;
  if (!placeholder) throw new Conflict(DUPLICATE_TEMPLATE);
  const [replacing, ...rest] = records;
  await deps.assignments.applyAssignments({
    of: { wabaId: first.waba_id, templateId: first.meta_template.id, clientId: first.client_id, version: held.version },
    current: held.records,
    create: rest,
    update: [{ before: placeholder, after: { ...replacing, id: placeholder.id, created_at: placeholder.created_at } }],
    remove: [],
  });
  event.data = { ...replacing, id: placeholder.id };
  await deps.records.register([], [event]);
}
