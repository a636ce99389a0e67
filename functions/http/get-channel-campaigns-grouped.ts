import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import { groupedAssignments } from '#lib/domain/templates/assignments.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetChannelCampaignsGrouped } from '#lib/manifest/routes/assignments.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const deps = { records: new DynamoTemplateRecords(table) };

export const handler = httpFunction(GetChannelCampaignsGrouped, ({ path, caller }) => groupedAssignments(deps, caller, path.id));
