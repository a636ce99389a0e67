import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { listTemplates } from '#lib/domain/templates.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListTemplates } from '#lib/manifest/routes/templates.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const deps = { directory: new DynamoDirectoryStore(table), records: new DynamoTemplateRecordStore(table) };

export const handler = httpFunction(ListTemplates, ({ query, caller }) => listTemplates(deps, caller, query));
