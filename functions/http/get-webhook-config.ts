import { getWebhookConfig } from '#lib/domain/webhook-config.ts';
import { parseClientIdParam } from '#lib/domain/tenancy.ts';
import { webhookConfigs } from '#lib/deps.ts';
import { httpFunction } from '#lib/http/handler.ts';
import { GetWebhookQuery } from '#lib/schemas/webhook.ts';

export const handler = httpFunction({ query: GetWebhookQuery }, async ({ query, caller }) => ({
  status: 200,
  body: await getWebhookConfig(webhookConfigs, caller, parseClientIdParam(query.client_id)),
}));
