import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import type { EventPublisher } from '#lib/domain/webhooks/ports.ts';
import { copy } from '../copy.ts';

/** An event publisher that keeps what it published, or fails when told to. */
export class MemoryEventPublisher implements EventPublisher {
  readonly published: ServiceEvent[] = [];
  failing = false;

  async publish(events: ServiceEvent[]) {
    if (this.failing) throw new Error('bus unreachable');
    this.published.push(...copy(events));
  }
}
