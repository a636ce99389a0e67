import { directory, graph, media, outbox, publisher, templateRecords } from '#lib/deps.ts';
import { createTemplate } from '#lib/domain/create-template.ts';
import { parseClientIdParam } from '#lib/domain/tenancy.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { CreateTemplateBody, CreateTemplateQuery, TemplateDidPath } from '#lib/schemas/create-template.ts';

/** Multipart bodies over 4 MiB get 413 (decisions §4). */
const MAX_MULTIPART_BYTES = 4 * 1024 * 1024;

export const handler = httpFunction(
  {
    path: TemplateDidPath,
    query: CreateTemplateQuery,
    body: CreateTemplateBody,
    invalidMessage: 'Template validation failed',
    multipart: { jsonPart: 'template', filePart: 'file', maxBytes: MAX_MULTIPART_BYTES },
  },
  async ({ path, query, body, caller, file }) => ({
    status: 200,
    body: await createTemplate(
      { directory, records: templateRecords, outbox, publisher, upstream: graph(), media },
      caller,
      { did: path.id, queryClientId: parseClientIdParam(query.client_id), body, file },
    ),
  }),
);
