import { listCatalogs } from '#lib/domain/catalogs.ts';
import { parseClientIdParam } from '#lib/domain/tenancy.ts';
import { directory, graph } from '#lib/deps.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { DidPath, ListCatalogsQuery } from '#lib/schemas/catalogs.ts';

export const handler = httpFunction({ path: DidPath, query: ListCatalogsQuery }, async ({ path, query, caller }) => ({
  status: 200,
  body: await listCatalogs({ directory, upstream: graph() }, caller, {
    did: path.did,
    clientId: parseClientIdParam(query.client_id),
  }),
}));
