import type { ServiceEvent } from './events.ts';
import type { Log } from '../shared/log.ts';
import type { EventPublisher, OutboxStore } from './ports.ts';

export interface OutboxDeps {
  publisher: EventPublisher;
  outbox: OutboxStore;
  log: Log;
}

/**
 * Publishes events already saved in the outbox with the change that caused them. When publishing fails the
 * events stay in the outbox and the relay publishes them later, so none is lost; the event id stays the
 * same, so a receiver can drop a repeat by its webhook-id.
 */
export async function publishSaved({ publisher, outbox, log }: OutboxDeps, events: ServiceEvent[]) {
  try {
    await publisher.publish(events);
  } catch (error) {
    log.warn('event publish failed; left in the outbox for the relay', { event_ids: events.map((e) => e.id), error: String(error) });
    return false;
  }
  await outbox
    .remove(events.map((e) => e.id))
    .catch((error: unknown) => log.warn('published events could not be cleared from the outbox', { error: String(error) }));
  return true;
}

/** The relay: publishes outbox events older than `graceMs` (younger ones may still be published by their request). */
export async function relayOutbox({ publisher, outbox, log }: OutboxDeps, graceMs = 60_000, now = Date.now()) {
  const events = await outbox.pending(new Date(now - graceMs).toISOString(), 100);
  if (events.length === 0) return 0;
  await publisher.publish(events);
  await outbox.remove(events.map((e) => e.id));
  log.info('outbox relayed', { count: events.length });
  return events.length;
}
