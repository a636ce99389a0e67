import type { ServiceEvent } from './events.ts';
import type { WebhookConfigStore } from './ports.ts';
import { parseHttpsUrl } from './url-guard.ts';

/**
 * Delivers one service event to its client's webhook (decisions §6). The event id is the message id (stable
 * across retries, so receivers can drop repeats); how a message is signed and carried is the sender's.
 */
export interface WebhookSender {
  /** Signs the message with the secret, POSTs it over HTTPS to a public address only; resolves with the HTTP status. */
  send(url: URL, secret: string, message: { id: string; timestamp: Date; body: string }): Promise<number>;
}

export type DeliveryOutcome = 'delivered' | 'no_configuration' | 'inactive';

export class DeliveryFailed extends Error {}

export async function deliverEvent(
  deps: { configs: WebhookConfigStore; sender: WebhookSender; now?: () => Date },
  event: ServiceEvent,
): Promise<DeliveryOutcome> {
  const config = await deps.configs.get(event.client_id);
  if (!config) return 'no_configuration';
  if (!config.active) return 'inactive';
  const parsed = parseHttpsUrl(config.url);
  // A stored URL was checked when it was saved; one that fails now is never called.
  if (!parsed.ok) throw new DeliveryFailed(`webhook URL refused: ${parsed.reason}`);
  let status: number;
  try {
    status = await deps.sender.send(parsed.url, config.signing_secret, {
      id: event.id,
      timestamp: deps.now?.() ?? new Date(),
      body: JSON.stringify(event),
    });
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
