import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { groupedAssignments } from '#lib/domain/assignments.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetChannelCampaignsGrouped } from '#lib/manifest/routes/assignments.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const deps = { directory: new DynamoDirectoryStore(table), records: new DynamoTemplateRecordStore(table) };

export const handler = httpFunction(GetChannelCampaignsGrouped, ({ path, caller }) => groupedAssignments(deps, caller, path.id));
