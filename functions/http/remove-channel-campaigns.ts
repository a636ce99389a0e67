import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoTemplateAssignments } from '#lib/adapters/dynamo/templates/template-assignments.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import { removeAssignments } from '#lib/domain/templates/assignments.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { RemoveChannelCampaigns } from '#lib/manifest/routes/assignments.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const deps = {
  directory: new DynamoDirectoryStore(table),
  records: new DynamoTemplateRecords(table),
  assignments: new DynamoTemplateAssignments(table),
};

export const handler = httpFunction(RemoveChannelCampaigns, ({ path, query, caller }) =>
  removeAssignments(deps, caller, path.id, {
    client_id: query.client_id,
    channel_id: query.channel_id,
    campaign_id: query.campaign_id,
  }),
);
