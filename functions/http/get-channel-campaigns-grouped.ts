import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { groupedAssignments } from '#lib/domain/assignments.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetChannelCampaignsGrouped } from '#lib/routes.ts';

const deps = { directory: new DynamoDirectoryStore(), records: new DynamoTemplateRecordStore() };

export const handler = httpFunction(GetChannelCampaignsGrouped, ({ path, caller }) => groupedAssignments(deps, caller, path.id));
