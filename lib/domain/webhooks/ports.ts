import type { ServiceEvent } from './events.ts';
import type { DeliveryStatus, WebhookConfig, WebhookDelivery } from './webhook.ts';

// Service events and their delivery to each client's webhook (decisions §15).

export interface WebhookConfigStore {
  get(clientId: number): Promise<WebhookConfig | null>;
  /** Writes the configuration; creates the signing secret only when none exists yet. */
  put(config: Pick<WebhookConfig, 'client_id' | 'url' | 'active'>, newSecret: string): Promise<WebhookConfig>;
  /**
   * Makes `newSecret` the signing secret and keeps the one it replaces until `previousUntil` (decisions §15);
   * null when the client has no configuration.
   */
  rotate(clientId: number, newSecret: string, previousUntil: string): Promise<WebhookConfig | null>;
}

/**
 * The webhook delivery log (decisions §15): one delivery per event, written at every attempt, kept a while
 * (then it expires), listed per client newest first.
 */
export interface DeliveryLog {
  /** The delivery and the event it carries (absent when it was too large to keep), or null. */
  get(id: string): Promise<{ delivery: WebhookDelivery; event?: ServiceEvent } | null>;
  /**
   * Writes the delivery as it now is, on condition it is still as read (`previous`; null: it must not exist
   * yet), else DeliveryChanged. The client's counts move with its status in the same write.
   */
  save(delivery: WebhookDelivery, event: ServiceEvent, previous: WebhookDelivery | null): Promise<void>;
  /** A page of the client's deliveries (of one status, when given), newest first, and how many there are. */
  list(
    clientId: number,
    status: DeliveryStatus | undefined,
    page: { offset: number; size: number },
  ): Promise<{ deliveries: WebhookDelivery[]; total: number }>;
}

/** Events written with the change that caused them and removed once published (transactional outbox). */
export interface OutboxStore {
  pending(olderThanIso: string, limit: number): Promise<ServiceEvent[]>;
  remove(ids: string[]): Promise<void>;
}

/** Publishes service events (to EventBridge in AWS). */
export interface EventPublisher {
  publish(events: ServiceEvent[]): Promise<void>;
}
