import { DynamoWebhookConfigStore } from '#lib/adapters/dynamo/webhooks/webhook-store.ts';
import { rotateWebhookSecret } from '#lib/domain/webhooks/webhook-config.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { RotateWebhookSecret } from '#lib/manifest/routes/webhooks.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const store = new DynamoWebhookConfigStore(table);

export const handler = httpFunction(RotateWebhookSecret, ({ body, caller }) => rotateWebhookSecret(store, caller, body));
