import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoTemplateListing } from '#lib/adapters/dynamo/templates/template-listing.ts';
import { listTemplates } from '#lib/domain/templates/list-templates.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListTemplates } from '#lib/manifest/routes/templates.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const deps = { directory: new DynamoDirectoryStore(table), listing: new DynamoTemplateListing(table) };

export const handler = httpFunction(ListTemplates, ({ query, caller }) => listTemplates(deps, caller, query));
