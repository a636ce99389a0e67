import type { Caller } from '../shared/caller.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import type { TemplateListing } from './ports.ts';
import { resolvePage } from '../shared/paging.ts';
import { listingAnswer, listingCriteria, TEMPLATES_PAGE, type TemplateQuery } from './template-listing.ts';
import { channelInHierarchy, templateListingClient } from '../shared/tenancy.ts';

/** GET /v1/templates: the listing rules of the token, then one page of the client's listing entries. */
export async function listTemplates(
  deps: { directory: DirectoryStore; listing: TemplateListing },
  caller: Caller,
  query: Omit<TemplateQuery, 'wabaId'> & { client_id?: number; did?: string; limit?: number },
) {
  const clientId = templateListingClient(caller, query.client_id);
  const wabaId = query.did ? (await channelInHierarchy(deps.directory, clientId, query.did)).waba_id : undefined;
  const criteria = listingCriteria({ ...query, wabaId });
  const page = resolvePage({ page: query.page, size: query.size ?? query.limit }, TEMPLATES_PAGE);
  const { entries, total } = await deps.listing.listingPage(clientId, criteria, page);
  return listingAnswer(entries, total, page, query.fields);
}
