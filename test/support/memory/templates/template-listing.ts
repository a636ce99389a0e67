import type { TemplateListing } from '#lib/domain/templates/ports.ts';
import { type ListingCriteria, type ListingEntry, listingEntryOf, pageOfEntries } from '#lib/domain/templates/template-listing.ts';
import type { MetaTemplate, TemplateRecord } from '#lib/domain/templates/template-record.ts';
import { copy } from '../copy.ts';
import type { MemoryTemplateTable } from './template-table.ts';

export class MemoryTemplateListing implements TemplateListing {
  constructor(private readonly table: MemoryTemplateTable) {}

  async listingPage(clientId: number, criteria: ListingCriteria, page: { offset: number; size: number }) {
    const groups = new Map<string, TemplateRecord[]>();
    for (const r of this.table.records.values()) {
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
}
