import type { TemplateRecord } from '#lib/domain/templates/template-record.ts';
import { MemoryTemplateAssignments } from './template-assignments.ts';
import { MemoryTemplateListing } from './template-listing.ts';
import { MemoryTemplateRecords } from './template-records.ts';
import { MemoryTemplateTable } from './template-table.ts';

/**
 * The template ports in memory, each its own adapter on one shared table, named as the use cases' deps name
 * them: spread what a use case needs, read `templateTable` to assess.
 */
export function memoryTemplates(initial: TemplateRecord[] = []) {
  const table = new MemoryTemplateTable(initial);
  return {
    templateTable: table,
    records: new MemoryTemplateRecords(table),
    listing: new MemoryTemplateListing(table),
    assignments: new MemoryTemplateAssignments(table),
  };
}

export type MemoryTemplates = ReturnType<typeof memoryTemplates>;
