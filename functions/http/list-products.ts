import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { listProducts } from '#lib/domain/templates/catalogs.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListProducts } from '#lib/manifest/routes/catalogs.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const directory = new DynamoDirectoryStore(table);

export const handler = httpFunction(ListProducts, ({ path, query, caller }) =>
  listProducts({ directory, upstream: graphUpstream() }, caller, {
    did: path.did,
    catalogId: query.catalog_id,
    clientId: query.client_id,
    cursor: query.cursor,
    limit: query.limit,
  }),
);
