import { EVENT_TYPES } from '#lib/domain/webhooks/events.ts';

/**
 * The EventBridge side of service events: their source and the rules that route them. The CDK stack
 * declares these rules, and the local stack routes PutEvents calls with the same patterns, so both deliver
 * alike. The events themselves are the domain's (lib/domain/webhooks/events.ts).
 */
export const EVENT_SOURCE = 'template-messaging-service';

export interface EventRule {
  name: string;
  pattern: { source: string[]; 'detail-type': string[] };
  /** Key of the queue (lib/manifest/queues.ts) the rule sends matching events to. */
  targetQueue: 'webhookEvents';
}

export const EVENT_RULES: EventRule[] = [
  {
    name: 'TemplateEventsToWebhookQueue',
    pattern: { source: [EVENT_SOURCE], 'detail-type': [...EVENT_TYPES] },
    targetQueue: 'webhookEvents',
  },
];

/** The subset of EventBridge pattern matching the rules above use: exact values per field. */
export function matchesPattern(pattern: EventRule['pattern'], event: { source: string; 'detail-type': string }): boolean {
  return pattern.source.includes(event.source) && pattern['detail-type'].includes(event['detail-type']);
}
