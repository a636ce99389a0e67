import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { loadConfig } from '#lib/config.ts';
import type { ServiceEvent } from '#lib/domain/events.ts';
import type { EventPublisher } from '#lib/domain/ports.ts';
import { EVENT_SOURCE } from '#lib/events.ts';

let client: EventBridgeClient | undefined;

/** Publishes service events to the bus; any entry EventBridge refuses fails the whole call. */
export class EventBridgePublisher implements EventPublisher {
  constructor(private readonly eventBridge: () => EventBridgeClient = () => (client ??= new EventBridgeClient({}))) {}

  async publish(events: ServiceEvent[]) {
    const bus = loadConfig('EVENT_BUS_NAME').EVENT_BUS_NAME;
    for (let i = 0; i < events.length; i += 10) {
      const batch = events.slice(i, i + 10);
      const result = await this.eventBridge().send(
        new PutEventsCommand({
          Entries: batch.map((event) => ({
            EventBusName: bus,
            Source: EVENT_SOURCE,
            DetailType: event.type,
            Detail: JSON.stringify(event),
            Time: new Date(event.occurred_at),
          })),
        }),
      );
      if (result.FailedEntryCount) throw new Error(`EventBridge refused ${result.FailedEntryCount} of ${batch.length} events`);
    }
  }
}
