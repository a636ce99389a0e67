import type { Caller } from '#lib/auth/caller.ts';
import { badRequest, notFound } from '#lib/errors.ts';
import type { WebhookConfigStore } from '#lib/store/ports.ts';
import { actingClient } from './tenancy.ts';
import { checkPublicHttpsUrl, URL_CHECK_MESSAGES, type Resolver } from './url-guard.ts';

export interface WebhookConfig {
  client_id: number;
  url: string;
  active: boolean;
  /** Standard Webhooks signing secret (`whsec_` + base64), made on first configuration (decisions §6). */
  signing_secret: string;
  created_at: string;
  updated_at: string;
}

export const toWebhookView = (config: WebhookConfig) => ({
  client_id: config.client_id,
  url: config.url,
  active: config.active,
  signing_secret: config.signing_secret,
});

export function newSigningSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
}

export interface WebhookDeps {
  store: WebhookConfigStore;
  resolve: Resolver;
}

/** PUT /v1/webhook/config: creates or updates the acting client's one configuration. */
export async function setWebhookConfig(
  deps: WebhookDeps,
  caller: Caller,
  input: { url?: string; client_id?: number; active?: boolean },
) {
  const clientId = actingClient(caller, input.client_id);
  if (input.url === undefined || input.url.trim() === '') {
    throw badRequest('url is required', [{ path: 'url', message: 'is required' }]);
  }
  const check = await checkPublicHttpsUrl(input.url, deps.resolve, { allowUnresolved: true });
  if (!check.ok) throw badRequest(`url ${URL_CHECK_MESSAGES[check.reason]}`, [{ path: 'url', message: URL_CHECK_MESSAGES[check.reason] }]);
  const saved = await deps.store.put({ client_id: clientId, url: check.url.href, active: input.active as boolean }, newSigningSecret());
  return toWebhookView(saved);
}

/** GET /v1/webhook/config */
export async function getWebhookConfig(store: WebhookConfigStore, caller: Caller, requestedClientId?: number) {
  const clientId = actingClient(caller, requestedClientId);
  const config = await store.get(clientId);
  if (!config) throw notFound(`No webhook configuration exists for client ${clientId}`);
  return toWebhookView(config);
}
