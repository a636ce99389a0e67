import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { listTemplates } from '#lib/domain/templates.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListTemplates } from '#lib/routes.ts';

const deps = { directory: new DynamoDirectoryStore(), records: new DynamoTemplateRecordStore() };

export const handler = httpFunction(ListTemplates, ({ query, caller }) => listTemplates(deps, caller, query));
