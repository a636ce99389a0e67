import type { TemplateRecord } from '#lib/domain/template-record.ts';

/**
 * Service events (decisions §6) and the EventBridge rules that route them. The CDK stack declares these
 * rules, and the local stack routes PutEvents calls with the same patterns, so both deliver alike.
 */
export const EVENT_SOURCE = 'template-messaging-service';
export const EVENT_TYPES = ['template.created', 'template.status_changed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface ServiceEvent {
  id: string;
  type: EventType;
  occurred_at: string;
  client_id: number;
  data: TemplateRecord;
}

export interface EventRule {
  name: string;
  pattern: { source: string[]; 'detail-type': string[] };
  /** Key of the queue (lib/queues.ts) the rule sends matching events to. */
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

export interface EventPublisher {
  publish(events: ServiceEvent[]): Promise<void>;
}

export function templateEvent(type: EventType, record: TemplateRecord, now = new Date().toISOString()): ServiceEvent {
  return { id: crypto.randomUUID(), type, occurred_at: now, client_id: record.client_id, data: record };
}
