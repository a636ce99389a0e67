import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { changeTemplateStatus } from '#lib/domain/bulk-status.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ChangeTemplateStatus } from '#lib/routes.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const records = new DynamoTemplateRecordStore(table);

export const handler = httpFunction(ChangeTemplateStatus, ({ body, caller }) => changeTemplateStatus(records, caller, body));
