import { directory, dispatchQueue, graph, resolveHost, templateRecords } from '#lib/deps.ts';
import { sendTemplate } from '#lib/domain/send.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { DidPath } from '#lib/schemas/catalogs.ts';
import { SendBody } from '#lib/schemas/send.ts';

export const handler = httpFunction(
  { path: DidPath, body: SendBody, invalidMessage: 'Invalid send payload' },
  async ({ path, body, caller, requestId }) => ({
    status: 200,
    body: await sendTemplate(
      { directory, records: templateRecords, upstream: graph(), queue: dispatchQueue, resolve: resolveHost },
      caller,
      { pathDid: path.did, body, sendId: requestId },
    ),
  }),
);
