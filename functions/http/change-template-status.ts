import { DynamoTemplateAssignments } from '#lib/adapters/dynamo/templates/template-assignments.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import { changeTemplateStatus } from '#lib/domain/templates/bulk-status.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ChangeTemplateStatus } from '#lib/manifest/routes/templates.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = { records: new DynamoTemplateRecords(table), assignments: new DynamoTemplateAssignments(table) };

/** The function's remaining time bounds the request (decisions §19): what it cannot reach answers `not_processed`. */
export const handler = httpFunction(ChangeTemplateStatus, ({ body, caller, context }) =>
  changeTemplateStatus(stores, caller, body, { deadline: { remainingMs: () => context.getRemainingTimeInMillis() } }),
);
