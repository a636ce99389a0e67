import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { listProducts } from '#lib/domain/catalogs.ts';
import { parseClientIdParam } from '#lib/domain/tenancy.ts';
import { badRequest } from '#lib/http/api-error.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListProducts } from '#lib/routes.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const directory = new DynamoDirectoryStore(table);

export const handler = httpFunction(ListProducts, ({ path, query, caller }) => {
  const clientId = parseClientIdParam(query.client_id);
  if (!query.catalog_id) throw badRequest('catalog_id is required', [{ path: 'catalog_id', message: 'is required' }]);
  return listProducts({ directory, upstream: graphUpstream() }, caller, {
    did: path.did,
    catalogId: query.catalog_id,
    clientId,
    cursor: query.cursor,
    limit: query.limit,
  });
});
