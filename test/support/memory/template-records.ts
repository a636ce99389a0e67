import { recordStorageProblem } from '#lib/adapters/dynamo/item-limits.ts';
import { registerOneByOne } from '#lib/adapters/dynamo/template-store.ts';
import { BULK_SAFETY_MS } from '#lib/domain/bulk-status.ts';
import type { ServiceEvent } from '#lib/domain/events.ts';
import { revisedRecord } from '#lib/domain/meta-notifications.ts';
import {
  AssignmentConflict,
  ChangeTooLarge,
  type ActiveFlip,
  type ActiveWrite,
  type AssignmentChange,
  type Deadline,
  type TemplateRecordStore,
  type TemplateRevision,
} from '#lib/domain/ports/templates.ts';
import { listingEntryOf, pageOfEntries, type ListingCriteria, type ListingEntry } from '#lib/domain/template-listing.ts';
import { assignmentSlot, replacedRecord, type MetaTemplate, type TemplateRecord } from '#lib/domain/template-record.ts';
import { copy } from './copy.ts';

/** DynamoDB's limit of items in one transaction, counted as the DynamoDB adapter counts them. */
const TRANSACTION_LIMIT = 100;

const assignmentKey = (r: TemplateRecord) => `${r.waba_id}#${r.meta_template.id}#${r.client_id}#${assignmentSlot(r)}`;

const listingOrder = (r: TemplateRecord) =>
  `${r.meta_template.name}#${r.meta_template.language}#${r.waba_id}#${r.meta_template.id}#${r.id}`;

export class MemoryTemplateRecordStore implements TemplateRecordStore {
  readonly records = new Map<string, TemplateRecord>();
  /** Assignment keys: (template, client, pair) → record id. */
  private readonly keys = new Map<string, string>();
  readonly outbox = new Map<string, ServiceEvent>();
  /** The version of each (client, template)'s records; absent counts as 0. */
  private readonly versions = new Map<string, number>();

  constructor(initial: TemplateRecord[] = []) {
    for (const record of initial) this.put(record);
  }

  private put(record: TemplateRecord) {
    this.records.set(record.id, copy(record));
    this.keys.set(assignmentKey(record), record.id);
  }

  async get(id: string) {
    return copy(this.records.get(id) ?? null);
  }
  async getMany(ids: string[]) {
    return new Map([...new Set(ids)].filter((id) => this.records.has(id)).map((id) => [id, copy(this.records.get(id)!)]));
  }
  async listForClient(clientId: number) {
    return [...this.records.values()]
      .filter((r) => r.client_id === clientId)
      .sort((a, b) => (listingOrder(a) < listingOrder(b) ? -1 : 1))
      .map(copy);
  }
  async readAssignments(wabaId: string, templateId: string, clientId: number) {
    return {
      records: await this.listForTemplate(wabaId, templateId, clientId),
      version: this.versions.get(`${wabaId}#${templateId}#${clientId}`) ?? 0,
    };
  }

  async listForTemplate(wabaId: string, templateId: string, clientId?: number) {
    return [...this.records.values()]
      .filter((r) => r.waba_id === wabaId && r.meta_template.id === templateId && (clientId === undefined || r.client_id === clientId))
      .map(copy);
  }
  async listingPage(clientId: number, criteria: ListingCriteria, page: { offset: number; size: number }) {
    const groups = new Map<string, TemplateRecord[]>();
    for (const r of this.records.values()) {
      if (r.client_id !== clientId) continue;
      const key = `${r.waba_id}#${r.meta_template.id}`;
      groups.set(key, [...(groups.get(key) ?? []), copy(r)]);
    }
    const entries = [...groups.values()].map(listingEntryOf).filter((e): e is ListingEntry => e !== null);
    return pageOfEntries(entries, criteria, page);
  }
  async templatesOfWaba(clientId: number, wabaId: string) {
    const { entries } = await this.listingPage(clientId, { deleted: false, wabaId }, { offset: 0, size: Number.MAX_SAFE_INTEGER });
    return entries.map((e) => e.entry.meta_template as MetaTemplate);
  }
  async templateEntry(clientId: number, wabaId: string, name: string, language: string) {
    const { entries } = await this.listingPage(clientId, { deleted: false, wabaId, name, language }, { offset: 0, size: 1 });
    return entries[0] ?? null;
  }
  /** As the DynamoDB store: no write is begun with BULK_SAFETY_MS or less left; those flips are `not_processed`. */
  async setActive(flips: ActiveFlip[], now: string, deadline?: Deadline): Promise<ActiveWrite[]> {
    return flips.map(({ record: held, to }) => {
      if (deadline && deadline.remainingMs() <= BULK_SAFETY_MS) return 'not_processed';
      const record = this.records.get(held.id);
      if (!record) return 'missing';
      if (record.active === to) return 'changed_meanwhile';
      Object.assign(record, { active: to, updated_at: now });
      this.bump(record);
      return 'written';
    });
  }
  private bump(r: TemplateRecord) {
    const key = `${r.waba_id}#${r.meta_template.id}#${r.client_id}`;
    this.versions.set(key, (this.versions.get(key) ?? 0) + 1);
  }

  /** All or nothing, checked before anything is written, as one DynamoDB transaction. */
  async applyAssignments(change: AssignmentChange) {
    let items = change.create.length * 2 + change.remove.length * 2;
    for (const { before, after } of change.update) items += assignmentKey(before) === assignmentKey(after) ? 1 : 3;
    if (items === 0) return;
    items += 1; // the version
    const versionKey = `${change.of.wabaId}#${change.of.templateId}#${change.of.clientId}`;
    if (items > TRANSACTION_LIMIT) throw new ChangeTooLarge(`${items} items exceed one transaction`);
    const unchanged = (r: TemplateRecord) => this.records.get(r.id)?.updated_at === r.updated_at;
    const freedKeys = new Set([...change.remove, ...change.update.map((u) => u.before)].map(assignmentKey));
    const takenKeys = new Set<string>();
    const claim = (r: TemplateRecord) => {
      const key = assignmentKey(r);
      const holder = this.keys.get(key);
      if ((holder !== undefined && !freedKeys.has(key)) || takenKeys.has(key)) return false;
      takenKeys.add(key);
      return true;
    };
    const ok =
      (this.versions.get(versionKey) ?? 0) === change.of.version &&
      change.create.every((r) => !this.records.has(r.id) && claim(r)) &&
      change.update.every(({ before, after }) => unchanged(before) && (assignmentKey(before) === assignmentKey(after) || claim(after))) &&
      change.remove.every(unchanged);
    if (!ok) throw new AssignmentConflict();
    for (const r of [...change.remove, ...change.update.map((u) => u.before)]) this.keys.delete(assignmentKey(r));
    for (const r of change.remove) this.records.delete(r.id);
    for (const r of [...change.create, ...change.update.map((u) => u.after)]) this.put(r);
    this.versions.set(versionKey, change.of.version + 1);
  }

  async register(records: TemplateRecord[], events: ServiceEvent[]) {
    if (records.length > 0) {
      if (records.length * 2 + events.length > TRANSACTION_LIMIT) throw new ChangeTooLarge('too many items for one transaction');
      const keys = records.map(assignmentKey);
      const groups = new Set(records.map((r) => `${r.waba_id}#${r.meta_template.id}#${r.client_id}`));
      const taken = [...groups].some((g) => this.versions.has(g));
      if (taken || records.some((r) => this.records.has(r.id)) || keys.some((k) => this.keys.has(k)) || new Set(keys).size < keys.length) {
        throw new AssignmentConflict();
      }
      for (const record of records) this.put(record);
      for (const group of groups) this.versions.set(group, 1);
    }
    for (const event of events) this.outbox.set(event.id, copy(event));
  }

  async registerEach(records: TemplateRecord[]) {
    return { refused: await registerOneByOne(this, records) };
  }

  /** The same limits as DynamoDB's (the contract test holds both to them). */
  storageProblem(record: TemplateRecord) {
    return recordStorageProblem(record);
  }

  async markDeleted(records: TemplateRecord[], deleted: boolean, now: string) {
    for (const r of records) {
      const stored = this.records.get(r.id);
      if (stored && Boolean(stored.deleted) !== deleted) {
        Object.assign(stored, { deleted, updated_at: now });
        this.bump(stored);
      }
    }
  }

  async reviseTemplate(
    of: { wabaId: string; templateId: string; clientId: number },
    revise: (records: TemplateRecord[]) => TemplateRevision | null,
    now: string,
    source: 'sync' | 'webhook',
  ) {
    const held = [...this.records.values()].filter(
      (r) => r.waba_id === of.wabaId && r.meta_template.id === of.templateId && r.client_id === of.clientId,
    );
    const revision = held.length > 0 ? revise(copy(held)) : null;
    if (!revision) return { revised: false, events: [] };
    for (const r of held) {
      Object.assign(r, revisedRecord(r, copy(revision), now, source));
      this.bump(r);
    }
    for (const event of revision.events) this.outbox.set(event.id, copy(event));
    return { revised: true, events: copy(revision.events) };
  }

  async replaceMetaTemplate(records: TemplateRecord[], meta: MetaTemplate, source: 'edit' | 'sync', now: string, heldSince = now) {
    for (const r of records) {
      const stored = this.records.get(r.id);
      if (stored) {
        Object.assign(stored, replacedRecord(stored, copy(meta), source, now, heldSince));
        this.bump(stored);
      }
    }
  }
}
