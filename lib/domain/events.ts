import type { TemplateRecord } from './template-record.ts';

/** Service events (decisions §6): written with the change that caused them (the outbox), then published. */
export const EVENT_TYPES = ['template.created', 'template.status_changed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface ServiceEvent {
  id: string;
  type: EventType;
  occurred_at: string;
  client_id: number;
  data: TemplateRecord;
  /** The request (or job) that caused the event: in the delivery's logs and its `x-correlation-id` header. */
  correlation_id?: string;
}

export function templateEvent(
  type: EventType,
  record: TemplateRecord,
  now = new Date().toISOString(),
  correlationId?: string,
): ServiceEvent {
  return {
    id: crypto.randomUUID(),
    type,
    occurred_at: now,
    client_id: record.client_id,
    data: record,
    ...(correlationId && { correlation_id: correlationId }),
  };
}
