import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { DynamoTemplateAssignments } from '#lib/adapters/dynamo/template-assignments.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/template-records.ts';
import { addAssignments } from '#lib/domain/assignments.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { AddChannelCampaigns } from '#lib/manifest/routes/assignments.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const deps = {
  directory: new DynamoDirectoryStore(table),
  records: new DynamoTemplateRecords(table),
  assignments: new DynamoTemplateAssignments(table),
};

export const handler = httpFunction(AddChannelCampaigns, ({ path, body, caller }) => addAssignments(deps, caller, path.id, body), {
  owners: deps,
});
