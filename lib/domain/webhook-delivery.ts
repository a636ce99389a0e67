import { Webhook } from 'standardwebhooks';
import type { ServiceEvent } from '#lib/events.ts';
import type { WebhookConfigStore } from '#lib/store/ports.ts';
import { parseHttpsUrl } from './url-guard.ts';

/**
 * Delivers one service event to its client's webhook, signed the Standard Webhooks way (decisions §6):
 * `webhook-id` is the event id (stable across retries, so receivers can drop repeats), `webhook-timestamp`
 * the send time, `webhook-signature` `v1,<base64 HMAC-SHA256>` over `id.timestamp.body`.
 */
export interface WebhookTransport {
  /** POSTs over HTTPS to a public address only; resolves with the HTTP status. */
  post(url: URL, headers: Record<string, string>, body: string): Promise<number>;
}

export type DeliveryOutcome = 'delivered' | 'no_configuration' | 'inactive';

export class DeliveryFailed extends Error {}

export async function deliverEvent(
  deps: { configs: WebhookConfigStore; transport: WebhookTransport; now?: () => Date },
  event: ServiceEvent,
): Promise<DeliveryOutcome> {
  const config = await deps.configs.get(event.client_id);
  if (!config) return 'no_configuration';
  if (!config.active) return 'inactive';
  const parsed = parseHttpsUrl(config.url);
  // A stored URL was checked when it was saved; one that fails now is never called.
  if (!parsed.ok) throw new DeliveryFailed(`webhook URL refused: ${parsed.reason}`);
  const body = JSON.stringify(event);
  const timestamp = deps.now?.() ?? new Date();
  const signature = new Webhook(config.signing_secret).sign(event.id, timestamp, body);
  let status: number;
  try {
    status = await deps.transport.post(parsed.url, {
      'content-type': 'application/json',
      'user-agent': 'template-messaging-service/1',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    }, body);
  } catch (error) {
    throw new DeliveryFailed(`webhook not reachable: ${(error as Error).message}`);
  }
  if (status < 200 || status >= 300) throw new DeliveryFailed(`webhook answered ${status}`);
  return 'delivered';
}

/** Seconds to hide a failed message before its next try: 30 s doubling per receive, capped at 2 hours. */
export function retryDelaySeconds(receiveCount: number): number {
  return Math.min(30 * 2 ** Math.max(0, receiveCount - 1), 7200);
}
