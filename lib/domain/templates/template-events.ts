import { type EventType, type ServiceEvent, serviceEvent } from '../webhooks/events.ts';
import type { TemplateRecord } from './template-record.ts';

/** A template event (decisions §6): `data` is the template's record as the client reads it. */
export function templateEvent(
  type: EventType,
  record: TemplateRecord,
  now = new Date().toISOString(),
  correlationId?: string,
): ServiceEvent {
  return serviceEvent(type, record.client_id, record, now, correlationId);
}
