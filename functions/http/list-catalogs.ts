import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { listCatalogs } from '#lib/domain/templates/catalogs.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListCatalogs } from '#lib/manifest/routes/catalogs.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const directory = new DynamoDirectoryStore(table);

export const handler = httpFunction(ListCatalogs, ({ path, query, caller }) =>
  listCatalogs({ directory, upstream: graphUpstream() }, caller, { did: path.did, clientId: query.client_id }),
);
