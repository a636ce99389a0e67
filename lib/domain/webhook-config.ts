import type { Caller } from './caller.ts';
import { InvalidRequest, NotFound } from './errors.ts';
import type { WebhookConfigStore } from './ports.ts';
import { newSigningSecret, toWebhookView } from './webhook.ts';
import { actingClient } from './tenancy.ts';
import { checkPublicHttpsUrl, URL_CHECK_MESSAGES, type Resolver } from './url-guard.ts';

export interface WebhookDeps {
  store: WebhookConfigStore;
  resolve: Resolver;
}

/** PUT /v1/webhook/config: creates or updates the acting client's one configuration. */
export async function setWebhookConfig(deps: WebhookDeps, caller: Caller, input: { url?: string; client_id?: number; active?: boolean }) {
  const clientId = actingClient(caller, input.client_id);
  if (input.url === undefined || input.url.trim() === '') {
    throw new InvalidRequest('url is required', [{ path: 'url', message: 'is required' }]);
  }
  const check = await checkPublicHttpsUrl(input.url, deps.resolve, { allowUnresolved: true });
  if (!check.ok)
    throw new InvalidRequest(`url ${URL_CHECK_MESSAGES[check.reason]}`, [{ path: 'url', message: URL_CHECK_MESSAGES[check.reason] }]);
  const saved = await deps.store.put({ client_id: clientId, url: check.url.href, active: input.active as boolean }, newSigningSecret());
  return toWebhookView(saved);
}

/** GET /v1/webhook/config */
export async function getWebhookConfig(store: WebhookConfigStore, caller: Caller, requestedClientId?: number) {
  const clientId = actingClient(caller, requestedClientId);
  const config = await store.get(clientId);
  if (!config) throw new NotFound(`No webhook configuration exists for client ${clientId}`);
  return toWebhookView(config);
}
