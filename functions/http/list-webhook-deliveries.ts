import { DynamoDeliveryLog } from '#lib/adapters/dynamo/delivery-log.ts';
import { listDeliveries } from '#lib/domain/webhook-delivery.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListWebhookDeliveries } from '#lib/routes.ts';

const log = new DynamoDeliveryLog();

export const handler = httpFunction(ListWebhookDeliveries, ({ query, caller }) => listDeliveries(log, caller, query));
