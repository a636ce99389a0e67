import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { replaceAssignments } from '#lib/domain/assignments.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ReplaceChannelCampaigns } from '#lib/routes.ts';

const deps = { directory: new DynamoDirectoryStore(), records: new DynamoTemplateRecordStore() };

export const handler = httpFunction(ReplaceChannelCampaigns, ({ path, body, caller }) => replaceAssignments(deps, caller, path.id, body));
