import { directory, graph, templateRecords } from '#lib/deps.ts';
import { editTemplate } from '#lib/domain/edit-template.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { DidTemplatePath, EditTemplateBody } from '#lib/schemas/create-template.ts';

export const handler = httpFunction(
  { path: DidTemplatePath, body: EditTemplateBody, invalidMessage: 'Template validation failed' },
  async ({ path, body, caller }) => ({
    status: 200,
    body: await editTemplate({ directory, records: templateRecords, upstream: graph() }, caller, {
      did: path.id,
      recordId: path.messageTemplateId,
      body,
    }),
  }),
);
