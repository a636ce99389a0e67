import type { ErrorDetail } from '../errors.ts';
import type { ServiceEvent } from '../events.ts';
import type { ListingCriteria, ListingEntry } from '../template-listing.ts';
import type { MetaTemplate, NotifiedAt, TemplateRecord } from '../template-record.ts';

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
  events: ServiceEvent[];
}

export class AssignmentConflict extends Error {
  constructor() {
    super('The assignments changed while this request was applied; retry it');
  }
}

/** The change is larger than the store can apply atomically. */
export class ChangeTooLarge extends Error {}
