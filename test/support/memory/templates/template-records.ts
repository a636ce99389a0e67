import { recordStorageProblem } from '#lib/adapters/dynamo/item-limits.ts';
import { registerOneByOne } from '#lib/adapters/dynamo/templates/template-writes.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import { revisedRecord } from '#lib/domain/templates/template-notifications.ts';
import { AssignmentConflict, ChangeTooLarge, type TemplateRecords, type TemplateRevision } from '#lib/domain/templates/ports.ts';
import { type MetaTemplate, replacedRecord, type TemplateRecord } from '#lib/domain/templates/template-record.ts';
import { copy } from '../copy.ts';
import { assignmentKey, type MemoryTemplateTable, TRANSACTION_LIMIT } from './template-table.ts';

const listingOrder = (r: TemplateRecord) =>
  `${r.meta_template.name}#${r.meta_template.language}#${r.waba_id}#${r.meta_template.id}#${r.id}`;

export class MemoryTemplateRecords implements TemplateRecords {
  constructor(private readonly table: MemoryTemplateTable) {}

  async get(id: string) {
    return copy(this.table.records.get(id) ?? null);
  }
  async getMany(ids: string[]) {
    const { records } = this.table;
    return new Map([...new Set(ids)].filter((id) => records.has(id)).map((id) => [id, copy(records.get(id)!)]));
  }
  async listForClient(clientId: number) {
    return [...this.table.records.values()]
      .filter((r) => r.client_id === clientId)
      .sort((a, b) => (listingOrder(a) < listingOrder(b) ? -1 : 1))
      .map(copy);
  }
  async listForTemplate(wabaId: string, templateId: string, clientId?: number) {
    return this.table.recordsOf(wabaId, templateId, clientId);
  }

  async register(records: TemplateRecord[], events: ServiceEvent[]) {
    const { table } = this;
    if (records.length > 0) {
      if (records.length * 2 + events.length > TRANSACTION_LIMIT) throw new ChangeTooLarge('too many items for one transaction');
      const keys = records.map(assignmentKey);
      const groups = new Set(records.map((r) => `${r.waba_id}#${r.meta_template.id}#${r.client_id}`));
      const taken = [...groups].some((g) => table.versions.has(g));
      if (
        taken ||
        records.some((r) => table.records.has(r.id)) ||
        keys.some((k) => table.keys.has(k)) ||
        new Set(keys).size < keys.length
      ) {
        throw new AssignmentConflict();
      }
      for (const record of records) table.put(record);
      for (const group of groups) table.versions.set(group, 1);
    }
    for (const event of events) table.outbox.set(event.id, copy(event));
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
      const stored = this.table.records.get(r.id);
      if (stored && Boolean(stored.deleted) !== deleted) {
        Object.assign(stored, { deleted, updated_at: now });
        this.table.bump(stored);
      }
    }
  }

  async reviseTemplate(
    of: { wabaId: string; templateId: string; clientId: number },
    revise: (records: TemplateRecord[]) => TemplateRevision | null,
    now: string,
    source: 'sync' | 'webhook',
  ) {
    const held = [...this.table.records.values()].filter(
      (r) => r.waba_id === of.wabaId && r.meta_template.id === of.templateId && r.client_id === of.clientId,
    );
    const revision = held.length > 0 ? revise(copy(held)) : null;
    if (!revision) return { revised: false, events: [] };
    for (const r of held) {
      Object.assign(r, revisedRecord(r, copy(revision), now, source));
      this.table.bump(r);
    }
    for (const event of revision.events) this.table.outbox.set(event.id, copy(event));
    return { revised: true, events: copy(revision.events) };
  }

  async replaceMetaTemplate(records: TemplateRecord[], meta: MetaTemplate, source: 'edit' | 'sync', now: string, heldSince = now) {
    for (const r of records) {
      const stored = this.table.records.get(r.id);
      if (stored) {
        Object.assign(stored, replacedRecord(stored, copy(meta), source, now, heldSince));
        this.table.bump(stored);
      }
    }
  }
}
