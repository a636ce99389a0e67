import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoTemplateListing } from '#lib/adapters/dynamo/templates/template-listing.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import { editTemplate } from '#lib/domain/templates/edit-template.ts';
import { httpFunction, type RouteInput } from '#lib/http/http-function.ts';
import { EditTemplate } from '#lib/manifest/routes/templates.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = {
  directory: new DynamoDirectoryStore(table),
  records: new DynamoTemplateRecords(table),
  listing: new DynamoTemplateListing(table),
};

const edit = ({ path, body, caller }: RouteInput<typeof EditTemplate>, dryRun: boolean) =>
  editTemplate({ ...stores, upstream: graphUpstream() }, caller, { did: path.id, recordId: path.messageTemplateId, body, dryRun });

export const handler = httpFunction(
  EditTemplate,
  { run: (input) => edit(input, false), dryRun: (input) => edit(input, true) },
  { owners: stores },
);
