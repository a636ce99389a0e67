import type { Caller } from './caller.ts';
import type { DirectoryStore, TemplateRecordStore } from './ports.ts';
import { listTemplateEntries, type TemplateQuery } from './template-listing.ts';
import { channelInHierarchy, templateListingClient } from './tenancy.ts';

/** GET /v1/templates: the listing rules of the token, then one Query of the client's records. */
export async function listTemplates(
  deps: { directory: DirectoryStore; records: TemplateRecordStore },
  caller: Caller,
  query: Omit<TemplateQuery, 'wabaId'> & { client_id?: string; did?: string; limit?: number },
) {
  const clientId = templateListingClient(caller, query.client_id);
  const wabaId = query.did ? (await channelInHierarchy(deps.directory, clientId, query.did)).waba_id : undefined;
  const records = await deps.records.listForClient(clientId);
  return listTemplateEntries(records, { ...query, size: query.size ?? query.limit, wabaId });
}
