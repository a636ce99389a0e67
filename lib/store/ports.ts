import type { Campaign, ChannelRecord, Client, ContactChannel, Waba } from '#lib/domain/directory.ts';
import type { MetaTemplate, TemplateRecord } from '#lib/domain/template-record.ts';
import type { ServiceEvent } from '#lib/events.ts';
import type { WebhookConfig } from '#lib/domain/webhook-config.ts';

/** Read side of the directory (decisions §8). */
export interface DirectoryStore {
  getChannel(waId: string): Promise<ChannelRecord | null>;
  /** Channels ordered by client_id then wa_id; one client's when clientId is given. */
  listChannels(clientId?: number): Promise<ChannelRecord[]>;
  clientHasWaba(clientId: number, wabaId: string): Promise<boolean>;
  /** The WABAs of a client (those its channel records name). */
  listClientWabas(clientId: number): Promise<string[]>;
  getWaba(wabaId: string): Promise<Waba | null>;
  getClient(clientId: number): Promise<Client | null>;
  getCampaign(clientId: number, campaignId: number): Promise<Campaign | null>;
  getContactChannel(clientId: number, channelId: number): Promise<ContactChannel | null>;
}

export interface WebhookConfigStore {
  get(clientId: number): Promise<WebhookConfig | null>;
  /** Writes the configuration; creates the signing secret only when none exists yet. */
  put(config: Omit<WebhookConfig, 'signing_secret' | 'created_at' | 'updated_at'>, newSecret: string): Promise<WebhookConfig>;
}

export interface AssignmentChange {
  /** Records to write whole: new siblings (must not exist) and records changed in place (must exist). */
  create: TemplateRecord[];
  update: { before: TemplateRecord; after: TemplateRecord }[];
  /** Records to remove, as they were read. */
  remove: TemplateRecord[];
}

export type ActiveWrite = 'written' | 'changed_meanwhile' | 'missing';

/** Template records (decisions §3). Every multi-record change is one transaction. */
export interface TemplateRecordStore {
  get(id: string): Promise<TemplateRecord | null>;
  getMany(ids: string[]): Promise<Map<string, TemplateRecord>>;
  /** A client's records in listing order (name, language, WABA, template, record id). */
  listForClient(clientId: number): Promise<TemplateRecord[]>;
  /** Records of one upstream template; one client's when clientId is given. */
  listForTemplate(wabaId: string, templateId: string, clientId?: number): Promise<TemplateRecord[]>;
  /** Sets `active` only if it still has the value read: concurrent flips cannot both succeed. */
  setActive(id: string, from: boolean, to: boolean, now: string): Promise<ActiveWrite>;
  /** Applies an assignment change atomically; throws AssignmentConflict when a record changed meanwhile. */
  applyAssignments(change: AssignmentChange): Promise<void>;
  /** Registers new records and their events in one transaction (the events go to the outbox). */
  register(records: TemplateRecord[], events: ServiceEvent[]): Promise<void>;
  /** Replaces the meta_template of the given records (an edit reaches every sibling). */
  replaceMetaTemplate(records: TemplateRecord[], meta: MetaTemplate, source: 'edit' | 'sync', now: string): Promise<void>;
  /** Sets or clears `deleted` (a sync no longer finds, or finds again, the template upstream). */
  markDeleted(records: TemplateRecord[], deleted: boolean, now: string): Promise<void>;
}

/** The one-sync-at-a-time lease per client: a conditional write with an expiry (decisions §4). */
export interface SyncLeaseStore {
  acquire(clientId: number, leaseId: string, nowMs: number, ttlMs: number): Promise<boolean>;
  holds(clientId: number, leaseId: string, nowMs: number): Promise<boolean>;
  release(clientId: number, leaseId: string): Promise<void>;
}

/** A queue of jobs for a worker or the dispatch engine. */
export interface JobQueue {
  send(messages: Record<string, unknown>[]): Promise<void>;
}

/** Events written with the change that caused them and removed once published (transactional outbox). */
export interface OutboxStore {
  pending(olderThanIso: string, limit: number): Promise<ServiceEvent[]>;
  remove(ids: string[]): Promise<void>;
}

export class AssignmentConflict extends Error {
  constructor() {
    super('The assignments changed while this request was applied; retry it');
  }
}
