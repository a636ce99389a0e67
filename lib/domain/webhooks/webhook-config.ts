import type { Caller } from '../shared/caller.ts';
import { InvalidRequest, NotFound } from '../shared/errors.ts';
import type { WebhookConfigStore } from './ports.ts';
import { isLocalReceiver } from './webhook-delivery.ts';
import { newSigningSecret, PREVIOUS_SECRET_MS, toWebhookView } from './webhook.ts';
import { actingClient } from '../shared/tenancy.ts';
import { checkPublicHttpsUrl, URL_CHECK_MESSAGES, type Resolver } from '../shared/url-guard.ts';

export interface WebhookDeps {
  store: WebhookConfigStore;
  resolve: Resolver;
  /** The local stack's `ALLOW_LOCAL_WEBHOOKS` (decisions §15): `http://127.0.0.1:<port>/` receivers pass. */
  allowLocalReceivers?: boolean;
}

/** PUT /v1/webhook/config: creates or updates the acting client's one configuration. */
export async function setWebhookConfig(deps: WebhookDeps, caller: Caller, input: { url?: string; client_id?: number; active?: boolean }) {
  const clientId = actingClient(caller, input.client_id);
  if (input.url === undefined || input.url.trim() === '') {
    throw new InvalidRequest('url is required', [{ path: 'url', message: 'is required' }]);
  }
  let url: string;
  if (deps.allowLocalReceivers && isLocalReceiver(input.url)) url = new URL(input.url).href;
  else {
    const check = await checkPublicHttpsUrl(input.url, deps.resolve, { allowUnresolved: true });
    if (!check.ok)
      throw new InvalidRequest(`url ${URL_CHECK_MESSAGES[check.reason]}`, [{ path: 'url', message: URL_CHECK_MESSAGES[check.reason] }]);
    url = check.url.href;
  }
  const saved = await deps.store.put({ client_id: clientId, url, active: input.active as boolean }, newSigningSecret());
  return toWebhookView(saved);
}

/**
 * POST /v1/webhook/config/rotate-secret (decisions §15): a new signing secret; for 24 hours deliveries carry
 * signatures with both, so a receiver can switch at its own pace.
 */
export async function rotateWebhookSecret(store: WebhookConfigStore, caller: Caller, input: { client_id?: number }, now = new Date()) {
  const clientId = actingClient(caller, input.client_id);
  const until = new Date(now.getTime() + PREVIOUS_SECRET_MS).toISOString();
  const rotated = await store.rotate(clientId, newSigningSecret(), until);
  if (!rotated) throw new NotFound(`No webhook configuration exists for client ${clientId}`);
  return { ...toWebhookView(rotated), previous_secret_expires_at: until };
}

/** GET /v1/webhook/config */
export async function getWebhookConfig(store: WebhookConfigStore, caller: Caller, requestedClientId?: number) {
  const clientId = actingClient(caller, requestedClientId);
  const config = await store.get(clientId);
  if (!config) throw new NotFound(`No webhook configuration exists for client ${clientId}`);
  return toWebhookView(config);
}
