import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { changeTemplateStatus } from '#lib/domain/bulk-status.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ChangeTemplateStatus } from '#lib/routes.ts';

const records = new DynamoTemplateRecordStore();

export const handler = httpFunction(ChangeTemplateStatus, ({ body, caller }) => changeTemplateStatus(records, caller, body));
