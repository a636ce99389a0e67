import { DynamoWebhookConfigStore } from '#lib/adapters/dynamo/webhook-store.ts';
import { rotateWebhookSecret } from '#lib/domain/webhook-config.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { RotateWebhookSecret } from '#lib/routes.ts';

const store = new DynamoWebhookConfigStore();

export const handler = httpFunction(RotateWebhookSecret, ({ body, caller }) => rotateWebhookSecret(store, caller, body));
