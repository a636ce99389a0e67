import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { DynamoSendStore } from '#lib/adapters/dynamo/send-store.ts';
import { resolveHost } from '#lib/adapters/https/resolve-host.ts';
import { sendTemplate } from '#lib/domain/send.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { SendTemplate } from '#lib/routes.ts';
import { jobQueue } from '#lib/wiring/queues.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';

const stores = {
  directory: new DynamoDirectoryStore(),
  records: new DynamoTemplateRecordStore(),
  sends: new DynamoSendStore(),
  queue: jobQueue('dispatch'),
  resolve: resolveHost,
};

export const handler = httpFunction(SendTemplate, ({ path, body, caller, requestId }) =>
  sendTemplate({ ...stores, upstream: graphUpstream() }, caller, { pathDid: path.did, body, sendId: requestId }),
);
