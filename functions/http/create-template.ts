import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoOutboxStore } from '#lib/adapters/dynamo/webhooks/outbox-store.ts';
import { DynamoTemplateAssignments } from '#lib/adapters/dynamo/templates/template-assignments.ts';
import { DynamoTemplateListing } from '#lib/adapters/dynamo/templates/template-listing.ts';
import { DynamoTemplateRecords } from '#lib/adapters/dynamo/templates/template-records.ts';
import { EventBridgePublisher } from '#lib/adapters/eventbridge/publisher.ts';
import { createTemplate, dryRunCreate } from '#lib/domain/templates/create-template.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { multipartBody } from '#lib/http/middlewares/multipart-body.ts';
import { logger } from '#lib/log/logger.ts';
import { countMetrics } from '#lib/log/metrics.ts';
import { CreateTemplate } from '#lib/manifest/routes/templates.ts';
import { mediaPorts } from '#lib/wiring/media.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = {
  directory: new DynamoDirectoryStore(table),
  records: new DynamoTemplateRecords(table),
  listing: new DynamoTemplateListing(table),
  assignments: new DynamoTemplateAssignments(table),
  outbox: new DynamoOutboxStore(table),
  publisher: new EventBridgePublisher(),
  log: logger,
};

const deps = () => {
  const upstream = graphUpstream();
  return { ...stores, upstream, media: mediaPorts(upstream) };
};

export const handler = httpFunction(
  CreateTemplate,
  {
    run: async ({ path, query, body, caller, file, requestId }) => {
      const created = await createTemplate(deps(), caller, {
        did: path.id,
        queryClientId: query.client_id,
        body,
        file,
        correlationId: requestId,
      });
      countMetrics({ TemplatesCreated: 1 });
      return created;
    },
    dryRun: ({ path, query, body, caller, file, requestId }) =>
      dryRunCreate(deps(), caller, { did: path.id, queryClientId: query.client_id, body, file, correlationId: requestId }),
  },
  { multipart: multipartBody, owners: stores },
);
