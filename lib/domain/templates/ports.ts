import type { ErrorDetail } from '../shared/errors.ts';
import type { ServiceEvent } from '../webhooks/events.ts';
import type { ListingCriteria, ListingEntry } from './template-listing.ts';
import type { CategoryChange, MetaTemplate, NotifiedAt, PauseSummary, TemplateRecord } from './template-record.ts';
import type { SendingLimits } from '../shared/ports.ts';

// Template records, their listing and their assignments (decisions §3, §9, §11): three ports, each with its own
// adapter, and a use case is given the ones it uses, each apart (no type joins them again).

/**
 * A client's records of one template, read together with their version: every change of them is conditioned
 * on that version (decisions §11), so of two concurrent changes exactly one is written.
 */
export interface ClientAssignments {
  records: TemplateRecord[];
  version: number;
}

export interface AssignmentChange {
  /** The (client, template) whose records change, and the version they were read at. */
  of: { wabaId: string; templateId: string; clientId: number; version: number };
  /** The client's records of the template as read at that version (the listing entry is derived from them). */
  current: TemplateRecord[];
  /** Records to write whole: new siblings (must not exist) and records changed in place (must exist). */
  create: TemplateRecord[];
  update: { before: TemplateRecord; after: TemplateRecord }[];
  /** Records to remove, as they were read. */
  remove: TemplateRecord[];
}

/** `not_processed`: not written, as the request's time ran short (decisions §19). */
export type ActiveWrite = 'written' | 'changed_meanwhile' | 'missing' | 'not_processed';

/** How much time a request has left before its function is stopped (a Lambda's remaining time). */
export interface Deadline {
  remainingMs(): number;
}

export interface ActiveFlip {
  record: TemplateRecord;
  to: boolean;
}

/** Template records (decisions §3). Every multi-record change is one transaction. */
export interface TemplateRecords {
  get(id: string): Promise<TemplateRecord | null>;
  getMany(ids: string[]): Promise<Map<string, TemplateRecord>>;
  /** A client's records in listing order (name, language, WABA, template, record id). */
  listForClient(clientId: number): Promise<TemplateRecord[]>;
  /** Records of one upstream template; one client's when clientId is given. */
  listForTemplate(wabaId: string, templateId: string, clientId?: number): Promise<TemplateRecord[]>;
  /**
   * Registers new records and their events in one transaction (the events go to the outbox); the records
   * must be the first of their (client, template), else AssignmentConflict. Events alone (no records) may be
   * written in several transactions: each event stands by itself.
   */
  register(records: TemplateRecord[], events: ServiceEvent[]): Promise<void>;
  /**
   * Registers many first records (a sync's placeholders, each of its own (client, template)) in as few writes
   * as the store allows; a record whose (client, template) has records already is left out and answered back.
   */
  registerEach(records: TemplateRecord[]): Promise<{ refused: TemplateRecord[] }>;
  /**
   * Replaces the meta_template of the given records (an edit reaches every sibling, a test's fixture) with the
   * template as the upstream held it at `heldSince` (default `now`): older status news is then stale.
   */
  replaceMetaTemplate(
    records: TemplateRecord[],
    meta: MetaTemplate,
    source: 'edit' | 'sync',
    now: string,
    heldSince?: string,
  ): Promise<void>;
  /**
   * Revises one client's records of one template from what they hold now (a notification or a sync): `revise`
   * gets them as read, consistently, and answers the template they then have and the events of the change,
   * or null for no change. Records and events are written together; a concurrent change makes it read and
   * revise again. Answers whether the records changed and the events written.
   */
  reviseTemplate(
    of: { wabaId: string; templateId: string; clientId: number },
    revise: (records: TemplateRecord[]) => TemplateRevision | null,
    now: string,
    source: 'sync' | 'webhook',
  ): Promise<{ revised: boolean; events: ServiceEvent[] }>;
  /**
   * Why this record could not be stored (too large, nested too deep), naming the request field to blame;
   * undefined when it can. Use cases ask before they call the upstream, so nothing is made there that
   * cannot be recorded here.
   */
  storageProblem(record: TemplateRecord): ErrorDetail | undefined;
  /** Sets or clears `deleted` (a sync no longer finds, or finds again, the template upstream). */
  markDeleted(records: TemplateRecord[], deleted: boolean, now: string): Promise<void>;
}

/** The listing's read model: one entry per (client, template), kept with the records (decisions §9). */
export interface TemplateListing {
  /**
   * One page of a client's listing entries (one per template, decisions §9) that meet the criteria, in listing
   * order, and how many meet them. Reads grow with the page and the matches, never with the client's records.
   */
  listingPage(
    clientId: number,
    criteria: ListingCriteria,
    page: { offset: number; size: number },
  ): Promise<{ entries: ListingEntry[]; total: number }>;
  /** The templates of the client's live listing entries on the WABA, one per template. */
  templatesOfWaba(clientId: number, wabaId: string): Promise<MetaTemplate[]>;
  /** The client's live listing entry of the WABA's template of this name and language (a send's template). */
  templateEntry(clientId: number, wabaId: string, name: string, language: string): Promise<ListingEntry | null>;
}

/** A client's channels and campaigns on its records of a template (decisions §11). */
export interface TemplateAssignments {
  /** One client's records of one template and their version, read consistently (never from a stale index). */
  readAssignments(wabaId: string, templateId: string, clientId: number): Promise<ClientAssignments>;
  /**
   * Sets each record's `active` to `to` only if it still has the other value: concurrent flips cannot both
   * succeed. Records are passed as read, so the store knows their (client, template)s without a read; the
   * outcomes answer in the flips' order.
   */
  setActive(flips: ActiveFlip[], now: string, deadline?: Deadline): Promise<ActiveWrite[]>;
  /**
   * Applies an assignment change atomically; throws AssignmentConflict when a record changed meanwhile and
   * ChangeTooLarge when the change is more than one atomic write can hold.
   */
  applyAssignments(change: AssignmentChange): Promise<void>;
}

export interface TemplateRevision {
  meta: MetaTemplate;
  /** When the records took the news, for a notification; kept as it was when absent. */
  notified_at?: NotifiedAt;
  /** Meta's category changes as the records keep them after the news (decisions §34); kept as they were when absent. */
  category_change?: CategoryChange;
  /** The template's pauses after a status event of Meta's (decisions §34); kept as they were when absent. */
  pauses?: PauseSummary;
  events: ServiceEvent[];
}

export class AssignmentConflict extends Error {
  constructor() {
    super('The assignments changed while this request was applied; retry it');
  }
}

/** The change is larger than the store can apply atomically. */
export class ChangeTooLarge extends Error {}

/** A template Meta paused (for a while) or disabled (decisions §25), as the dispatcher reads it. */
export interface TemplatePause {
  state: 'paused' | 'disabled';
  since_ms: number;
  /** When a pause ends by itself (3 hours the first time, 6 the next), if no event ends it first. */
  until_ms?: number;
  /** How many times it was paused. */
  pauses: number;
}

/**
 * What moves a template's pause (decisions §25): Meta's status event at Meta's time (whole seconds), a 132015
 * refusal at this service's time, or the dispatcher finding the pause's period over.
 */
export type PauseChange =
  | {
      kind: 'event';
      event: 'paused' | 'resumed' | 'disabled';
      at_ms: number;
      /** Meta's pacing pause (`other_info.title` `RATE_LIMITING_PAUSE`): neither counted nor disabling. */
      pacing?: boolean;
    }
  | { kind: 'refusal'; at_ms: number }
  | { kind: 'period_over'; at_ms: number };

/** Templates Meta paused or disabled: written by its status events and by a 132015 refusal. */
export interface TemplatePauses {
  get(wabaId: string, templateId: string): Promise<TemplatePause | null>;
  /** Paused from `atMs` for Meta's period (the first 3 h, then 6 h), unless a pause is in force: the pause now. */
  pause(wabaId: string, templateId: string, atMs: number): Promise<TemplatePause>;
  /**
   * Meta's event, compared with the newest one taken (lib/domain/templates/pause-events.ts): an older one changes nothing,
   * so a `PAUSED` that arrives after the resume that followed it does not pause again. Conditional on the item
   * as read, so two events racing end as their times say. The pause after it (null: the template may send).
   */
  notified(wabaId: string, templateId: string, change: Extract<PauseChange, { kind: 'event' }>): Promise<TemplatePause | null>;
  /** Ends a pause whose period is over at `nowMs`; a pause that began meanwhile is kept. */
  resume(wabaId: string, templateId: string, nowMs: number): Promise<void>;
  /** The template's pauses as its answer shows them (decisions §34), read consistently. */
  summary(wabaId: string, templateId: string): Promise<PauseSummary>;
}

/** A template as the upstream holds it: name, language, status, category and components, and whatever else it returns. */
export type UpstreamTemplate = MetaTemplate;

/** A template of Meta's Template Library and what its buttons and body take (docs/platform-2027.md §6). */
export interface LibraryTemplateInputs {
  library_template_name: string;
  library_template_button_inputs?: Record<string, unknown>[];
  library_template_body_inputs?: Record<string, unknown>;
}

/** What a create sends upstream (the fields of upstream-facts §3); a library template sends `library` instead of components. */
export interface TemplateDraftForUpstream {
  name: string;
  language: string;
  category: string;
  components: Record<string, unknown>[];
  library?: LibraryTemplateInputs;
  parameter_format: 'POSITIONAL';
  message_send_ttl_seconds?: number;
  allow_category_change?: boolean;
  /** The dynamic max price settings (decisions §4); the upstream calls them the bid spec. */
  optimization?: Record<string, unknown>;
}

export interface CreatedTemplate {
  id: string;
  status: string;
  category: string;
}

/** An edit: the new components, and the category and optimization only when they change. */
export interface TemplateEdit {
  components: Record<string, unknown>[];
  category?: string;
  optimization?: Record<string, unknown>;
}

export interface TemplateUpstream {
  namespaceOf(wabaId: string): Promise<string | undefined>;
  /** The template of that name and language, or null. */
  findTemplate(wabaId: string, name: string, language: string): Promise<UpstreamTemplate | null>;
  /**
   * What Meta lets a send reach (decisions §22): the business portfolio's unique recipients in 24 hours
   * (Infinity: unlimited; absent: not known) and the sending number's quality rating.
   */
  sendingLimits(wabaId: string, phoneNumberId?: string): Promise<SendingLimits>;
  /** Every template of the WABA, a page at a time. */
  templatesOf(wabaId: string): AsyncIterable<UpstreamTemplate[]>;
  /** Answers when the upstream can list the WABA's templates; throws when it cannot. */
  probe(wabaId: string): Promise<void>;
  /** Throws UpstreamRejected with reason `duplicate_template` when the name and language exist already. */
  createTemplate(wabaId: string, draft: TemplateDraftForUpstream): Promise<CreatedTemplate>;
  editTemplate(templateId: string, edit: TemplateEdit): Promise<void>;
}

/** Header media: the upstream's resumable upload, which answers with a handle for the HEADER example. */
export interface MediaUpload {
  uploadMedia(file: { name: string; type: string; bytes: Uint8Array }): Promise<string>;
}

export interface Catalog {
  id: string;
  name: string;
  vertical: string;
}

/** A product as the contract shows it. */
export interface Product {
  id: string;
  name: string;
  retailer_id: string;
  image_urls: string[];
  description: string;
  currency: string;
  price: string;
  url: string;
  category: string;
  unique_id: string;
}

export interface ProductPage {
  products: Product[];
  /** The upstream's cursors around this page (empty strings when it gives none). */
  before: string;
  after: string;
  /** Whether another page follows this one. */
  hasNext: boolean;
}

export interface CatalogUpstream {
  namespaceOf(wabaId: string): Promise<string | undefined>;
  catalogsOf(wabaId: string): Promise<Catalog[]>;
  /** Throws UpstreamRejected when the upstream refuses the cursor or the catalog. */
  productsOf(catalogId: string, page: { limit: number; cursor?: string }): Promise<ProductPage>;
}

// Template syncs: their lease and progress (decisions §7).

/** How a sync run ended (decisions §14). */
export interface SyncRunResult {
  started_at: string;
  finished_at: string;
  result: 'succeeded' | 'failed';
  templates_seen: number;
  changes: number;
  error?: string;
}

/** How far a running sync got (decisions §14). */
export interface SyncProgress {
  wabas_done: number;
  wabas_total: number;
  pages: number;
  templates_seen: number;
  changes: number;
}

/** A client's sync as its lease and last run show it: `running` while an unexpired lease is held. */
export interface SyncState {
  running?: { started_at: string; progress?: SyncProgress };
  lastRun: SyncRunResult | null;
}

/** The one-sync-at-a-time lease per client: a conditional write with an expiry (decisions §4). */
export interface SyncLeaseStore {
  acquire(clientId: number, leaseId: string, nowMs: number, ttlMs: number): Promise<boolean>;
  holds(clientId: number, leaseId: string, nowMs: number): Promise<boolean>;
  /** Keeps the run's progress on its lease (only while the lease is this run's; otherwise nothing happens). */
  report(clientId: number, leaseId: string, progress: SyncProgress): Promise<void>;
  /** Gives the lease back (only its holder can); with a run's result, records it as the client's last run. */
  release(clientId: number, leaseId: string, lastRun?: SyncRunResult): Promise<void>;
  /** The running sync (an unexpired lease) and the last finished run, in one read. */
  state(clientId: number, nowMs: number): Promise<SyncState>;
}
