import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoTemplateAssignments } from '#lib/adapters/dynamo/templates/template-assignments.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import { addAssignments } from '#lib/domain/templates/assignments.ts';
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
