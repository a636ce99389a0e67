import { BULK_SAFETY_MS } from '#lib/domain/templates/bulk-status.ts';
import {
  type ActiveFlip,
  type ActiveWrite,
  AssignmentConflict,
  type AssignmentChange,
  ChangeTooLarge,
  type Deadline,
  type TemplateAssignments,
} from '#lib/domain/templates/ports.ts';
import type { TemplateRecord } from '#lib/domain/templates/template-record.ts';
import { assignmentKey, type MemoryTemplateTable, TRANSACTION_LIMIT } from './template-table.ts';

export class MemoryTemplateAssignments implements TemplateAssignments {
  constructor(private readonly table: MemoryTemplateTable) {}

  async readAssignments(wabaId: string, templateId: string, clientId: number) {
    return {
      records: this.table.recordsOf(wabaId, templateId, clientId),
      version: this.table.versions.get(`${wabaId}#${templateId}#${clientId}`) ?? 0,
    };
  }

  /** As the DynamoDB store: no write is begun with BULK_SAFETY_MS or less left; those flips are `not_processed`. */
  async setActive(flips: ActiveFlip[], now: string, deadline?: Deadline): Promise<ActiveWrite[]> {
    return flips.map(({ record: held, to }) => {
      if (deadline && deadline.remainingMs() <= BULK_SAFETY_MS) return 'not_processed';
      const record = this.table.records.get(held.id);
      if (!record) return 'missing';
      if (record.active === to) return 'changed_meanwhile';
      Object.assign(record, { active: to, updated_at: now });
      this.table.bump(record);
      return 'written';
    });
  }

  /** All or nothing, checked before anything is written, as one DynamoDB transaction. */
  async applyAssignments(change: AssignmentChange) {
    const { table } = this;
    let items = change.create.length * 2 + change.remove.length * 2;
    for (const { before, after } of change.update) items += assignmentKey(before) === assignmentKey(after) ? 1 : 3;
    if (items === 0) return;
    items += 1; // the version
    const versionKey = `${change.of.wabaId}#${change.of.templateId}#${change.of.clientId}`;
    if (items > TRANSACTION_LIMIT) throw new ChangeTooLarge(`${items} items exceed one transaction`);
    const unchanged = (r: TemplateRecord) => table.records.get(r.id)?.updated_at === r.updated_at;
    const freedKeys = new Set([...change.remove, ...change.update.map((u) => u.before)].map(assignmentKey));
    const takenKeys = new Set<string>();
    const claim = (r: TemplateRecord) => {
      const key = assignmentKey(r);
      const holder = table.keys.get(key);
      if ((holder !== undefined && !freedKeys.has(key)) || takenKeys.has(key)) return false;
      takenKeys.add(key);
      return true;
    };
    const ok =
      (table.versions.get(versionKey) ?? 0) === change.of.version &&
      change.create.every((r) => !table.records.has(r.id) && claim(r)) &&
      change.update.every(({ before, after }) => unchanged(before) && (assignmentKey(before) === assignmentKey(after) || claim(after))) &&
      change.remove.every(unchanged);
    if (!ok) throw new AssignmentConflict();
    for (const r of [...change.remove, ...change.update.map((u) => u.before)]) table.keys.delete(assignmentKey(r));
    for (const r of change.remove) table.records.delete(r.id);
    for (const r of [...change.create, ...change.update.map((u) => u.after)]) table.put(r);
    table.versions.set(versionKey, change.of.version + 1);
  }
}
