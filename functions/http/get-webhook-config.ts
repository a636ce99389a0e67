import { DynamoWebhookConfigStore } from '#lib/adapters/dynamo/webhooks/webhook-store.ts';
import { getWebhookConfig } from '#lib/domain/webhooks/webhook-config.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetWebhookConfig } from '#lib/manifest/routes/webhooks.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const store = new DynamoWebhookConfigStore(table);

export const handler = httpFunction(GetWebhookConfig, ({ query, caller }) => getWebhookConfig(store, caller, query.client_id));
