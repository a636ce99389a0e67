import { listProducts } from '#lib/domain/catalogs.ts';
import { parseClientIdParam } from '#lib/domain/tenancy.ts';
import { directory, graph } from '#lib/deps.ts';
import { badRequest } from '#lib/errors.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { DidPath, ListProductsQuery } from '#lib/schemas/catalogs.ts';

export const handler = httpFunction(
  { path: DidPath, query: ListProductsQuery, invalidMessage: 'Invalid query parameters' },
  async ({ path, query, caller }) => {
    const clientId = parseClientIdParam(query.client_id);
    if (!query.catalog_id) throw badRequest('catalog_id is required', [{ path: 'catalog_id', message: 'is required' }]);
    return {
      status: 200,
      body: await listProducts({ directory, upstream: graph() }, caller, {
        did: path.did,
        catalogId: query.catalog_id,
        clientId,
        cursor: query.cursor,
        limit: query.limit,
      }),
    };
  },
);
