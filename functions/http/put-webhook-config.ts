import { DynamoWebhookConfigStore } from '#lib/adapters/dynamo/webhooks/webhook-store.ts';
import { resolveHost } from '#lib/adapters/https/resolve-host.ts';
import { allowLocalWebhooks } from '#lib/config.ts';
import { setWebhookConfig } from '#lib/domain/webhooks/webhook-config.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { PutWebhookConfig } from '#lib/manifest/routes/webhooks.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const deps = { store: new DynamoWebhookConfigStore(table), resolve: resolveHost, allowLocalReceivers: allowLocalWebhooks() };

export const handler = httpFunction(PutWebhookConfig, ({ body, caller }) => setWebhookConfig(deps, caller, body));
