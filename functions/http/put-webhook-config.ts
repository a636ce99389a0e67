import { setWebhookConfig } from '#lib/domain/webhook-config.ts';
import { resolveHost, webhookConfigs } from '#lib/deps.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { SetWebhookBody } from '#lib/schemas/webhook.ts';

export const handler = httpFunction({ body: SetWebhookBody }, async ({ body, caller }) => ({
  status: 200,
  body: await setWebhookConfig({ store: webhookConfigs, resolve: resolveHost }, caller, body),
}));
