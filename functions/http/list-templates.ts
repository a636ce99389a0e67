import { directory, templateRecords } from '#lib/deps.ts';
import { listTemplates } from '#lib/domain/templates.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { ListTemplatesQuery } from '#lib/schemas/templates.ts';

export const handler = httpFunction({ query: ListTemplatesQuery, invalidMessage: 'Invalid query parameters' }, async ({ query, caller }) => ({
  status: 200,
  body: await listTemplates({ directory, records: templateRecords }, caller, query),
}));
