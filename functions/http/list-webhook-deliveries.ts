import { DynamoDeliveryLog } from '#lib/adapters/dynamo/webhooks/webhook-delivery-log.ts';
import { listDeliveries } from '#lib/domain/webhooks/webhook-delivery.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListWebhookDeliveries } from '#lib/manifest/routes/webhooks.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const log = new DynamoDeliveryLog(table);

export const handler = httpFunction(ListWebhookDeliveries, ({ query, caller }) => listDeliveries(log, caller, query));
