import { DynamoDirectoryStore } from '#lib/adapters/dynamo/directory-store.ts';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/outbox-store.ts';
import { DynamoTemplateRecordStore } from '#lib/adapters/dynamo/template-store.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { createTemplate, dryRunCreate } from '#lib/domain/create-template.ts';
import { parseClientIdParam } from '#lib/domain/tenancy.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { multipartBody } from '#lib/http/middlewares/multipart-body.ts';
import { logger } from '#lib/log/logger.ts';
import { countMetrics } from '#lib/log/metrics.ts';
import { CreateTemplate } from '#lib/routes.ts';
import { mediaPorts } from '#lib/wiring/media.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = {
  directory: new DynamoDirectoryStore(table),
  records: new DynamoTemplateRecordStore(table),
  outbox: new DynamoOutboxStore(table),
  publisher: new EventBridgePublisher(),
  log: logger,
};

export const handler = httpFunction(
  CreateTemplate,
  ({ path, query, body, caller, file, invalid, requestId }) => {
    const upstream = graphUpstream();
    const deps = { ...stores, upstream, media: mediaPorts(upstream) };
    const input = { did: path.id, queryClientId: parseClientIdParam(query.client_id), body, file, correlationId: requestId };
    if (query.dry_run !== 'true')
      return createTemplate(deps, caller, input).then((created) => {
        countMetrics({ TemplatesCreated: 1 });
        return created;
      });
    return invalid ? { valid: false, errors: invalid, review_warnings: [] } : dryRunCreate(deps, caller, input);
  },
  { multipart: multipartBody },
);
