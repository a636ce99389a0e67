import { DynamoDeliveryLog } from '#lib/adapters/dynamo/webhooks/webhook-delivery-log.ts';
import { replayDelivery } from '#lib/domain/webhooks/webhook-delivery.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ReplayWebhookDelivery } from '#lib/manifest/routes/webhooks.ts';
import { jobQueue } from '#lib/wiring/queues.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const deps = { log: new DynamoDeliveryLog(table), queue: jobQueue('webhookEvents') };

export const handler = httpFunction(ReplayWebhookDelivery, ({ path, caller }) => replayDelivery(deps, caller, path.id));
