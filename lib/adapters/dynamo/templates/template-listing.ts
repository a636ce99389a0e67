import type { TemplateListing } from '#lib/domain/templates/ports.ts';
import type { ListingCriteria } from '#lib/domain/templates/template-listing.ts';
import type { ServiceTable } from '../client.ts';
import { readListingPage, readTemplateEntry, readWabaTemplates } from './listing-reader.ts';

/** The listing's read model on the table (decisions §9): one entry per (client, template), kept by the writes. */
export class DynamoTemplateListing implements TemplateListing {
  constructor(private readonly table: ServiceTable) {}

  listingPage(clientId: number, criteria: ListingCriteria, page: { offset: number; size: number }) {
    return readListingPage(this.table, clientId, criteria, page);
  }

  templateEntry(clientId: number, wabaId: string, name: string, language: string) {
    return readTemplateEntry(this.table, clientId, wabaId, name, language);
  }

  templatesOfWaba(clientId: number, wabaId: string) {
    return readWabaTemplates(this.table, clientId, wabaId);
  }
}
