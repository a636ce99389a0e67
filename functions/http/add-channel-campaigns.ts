import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { addAssignments } from '#lib/domain/assignments.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { AddChannelCampaigns } from '#lib/routes.ts';

const deps = { directory: new DynamoDirectoryStore(), records: new DynamoTemplateRecordStore() };

export const handler = httpFunction(AddChannelCampaigns, ({ path, body, caller }) => addAssignments(deps, caller, path.id, body));
