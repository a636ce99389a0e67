import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import type { DeliveryLog } from '#lib/domain/webhooks/ports.ts';
import { DeliveryChanged, type DeliveryStatus, type WebhookDelivery } from '#lib/domain/webhooks/webhook.ts';
import { copy } from '../copy.ts';

/** The delivery log as the DynamoDB adapter keeps it: conditional on the delivery as read, counts by status. */
export class MemoryDeliveryLog implements DeliveryLog {
  readonly deliveries = new Map<string, { delivery: WebhookDelivery; event: ServiceEvent }>();

  async get(id: string) {
    return copy(this.deliveries.get(id) ?? null);
  }
  async save(delivery: WebhookDelivery, event: ServiceEvent, previous: WebhookDelivery | null) {
    const held = this.deliveries.get(delivery.id)?.delivery;
    const unchanged = previous ? held?.attempts === previous.attempts && held.status === previous.status : held === undefined;
    if (!unchanged) throw new DeliveryChanged();
    this.deliveries.set(delivery.id, copy({ delivery, event }));
  }
  async list(clientId: number, status: DeliveryStatus | undefined, page: { offset: number; size: number }) {
    const all = [...this.deliveries.values()]
      .map((d) => d.delivery)
      .filter((d) => d.client_id === clientId && (!status || d.status === status))
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    return { deliveries: copy(all.slice(page.offset, page.offset + page.size)), total: all.length };
  }
}
