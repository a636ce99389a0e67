import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import { assignmentSlot, type TemplateRecord } from '#lib/domain/templates/template-record.ts';
import { copy } from '../copy.ts';

/** DynamoDB's limit of items in one transaction, counted as the DynamoDB adapter counts them. */
export const TRANSACTION_LIMIT = 100;

/** An assignment key: (template, client, pair), as the table's key items are unique. */
export const assignmentKey = (r: TemplateRecord) => `${r.waba_id}#${r.meta_template.id}#${r.client_id}#${assignmentSlot(r)}`;

/**
 * The template records' items as the table holds them, shared by the in-memory adapters of the template ports
 * (records, listing, assignments; one a file): what one part writes, another reads, as on the table.
 */
export class MemoryTemplateTable {
  readonly records = new Map<string, TemplateRecord>();
  /** Assignment keys: (template, client, pair) → record id. */
  readonly keys = new Map<string, string>();
  readonly outbox = new Map<string, ServiceEvent>();
  /** The version of each (client, template)'s records; absent counts as 0. */
  readonly versions = new Map<string, number>();

  constructor(initial: TemplateRecord[] = []) {
    for (const record of initial) this.put(record);
  }

  put(record: TemplateRecord) {
    this.records.set(record.id, copy(record));
    this.keys.set(assignmentKey(record), record.id);
  }

  /** A (client, template)'s records changed: its version moves, as the table's version item does. */
  bump(r: TemplateRecord) {
    const key = `${r.waba_id}#${r.meta_template.id}#${r.client_id}`;
    this.versions.set(key, (this.versions.get(key) ?? 0) + 1);
  }

  /** Records of one upstream template; one client's when clientId is given. */
  recordsOf(wabaId: string, templateId: string, clientId?: number) {
    return [...this.records.values()]
      .filter((r) => r.waba_id === wabaId && r.meta_template.id === templateId && (clientId === undefined || r.client_id === clientId))
      .map(copy);
  }
}
