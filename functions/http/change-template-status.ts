import { templateRecords } from '#lib/deps.ts';
import { changeTemplateStatus } from '#lib/domain/bulk-status.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { BulkStatusBody } from '#lib/schemas/templates.ts';

export const handler = httpFunction({ body: BulkStatusBody, invalidMessage: 'Invalid bulk status request' }, async ({ body, caller }) => ({
  status: 200,
  body: await changeTemplateStatus(templateRecords, caller, body),
}));
