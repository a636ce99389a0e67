import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { editTemplate } from '#lib/domain/edit-template.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { EditTemplate } from '#lib/routes.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = { directory: new DynamoDirectoryStore(table), records: new DynamoTemplateRecordStore(table) };

export const handler = httpFunction(EditTemplate, ({ path, query, body, caller, invalid }) => {
  const dryRun = query.dry_run === 'true';
  if (dryRun && invalid) return { valid: false, errors: invalid, review_warnings: [] };
  return editTemplate({ ...stores, upstream: graphUpstream() }, caller, { did: path.id, recordId: path.messageTemplateId, body, dryRun });
});
