import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { loadConfig } from '#lib/config.ts';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import type { EventPublisher } from '#lib/domain/webhooks/ports.ts';
import { EVENT_SOURCE } from '#lib/manifest/events.ts';

let client: EventBridgeClient | undefined;

/** PutEvents takes at most ten entries a call. */
const ENTRIES_PER_CALL = 10;

/** Publishes service events to the bus; any entry EventBridge refuses fails the whole call. */
export class EventBridgePublisher implements EventPublisher {
  async publish(events: ServiceEvent[]) {
    client ??= new EventBridgeClient({});
    const bus = loadConfig('EVENT_BUS_NAME').EVENT_BUS_NAME;
    for (let i = 0; i < events.length; i += ENTRIES_PER_CALL) {
      const batch = events.slice(i, i + ENTRIES_PER_CALL);
      const result = await client.send(
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
