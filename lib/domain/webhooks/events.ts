/** Service events (decisions §6): written with the change that caused them (the outbox), then published. */
export const EVENT_TYPES = [
  'template.created',
  'template.status_changed',
  'template.category_changing',
  'template.category_changed',
  'send.paused',
  'send.resumed',
  'send.completed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface ServiceEvent {
  id: string;
  type: EventType;
  occurred_at: string;
  client_id: number;
  /** The template record (template events), or the send's status (send events, decisions §25). */
  data: object;
  /** The request (or job) that caused the event: in the delivery's logs and its `x-correlation-id` header. */
  correlation_id?: string;
}

/** An event of what changed, for one client, with the request (or job) that caused it. */
export function serviceEvent(
  type: EventType,
  clientId: number,
  data: ServiceEvent['data'],
  now: string,
  correlationId?: string,
): ServiceEvent {
  return {
    id: crypto.randomUUID(),
    type,
    occurred_at: now,
    client_id: clientId,
    data,
    ...(correlationId && { correlation_id: correlationId }),
  };
}

/**
 * A send event (decisions §25): `data` is the send's status as `GET /v1/sends/{id}` answers it; `send.completed`'s
 * (decisions §33) with its performance beside.
 */
export function sendEvent(
  type: 'send.paused' | 'send.resumed' | 'send.completed',
  clientId: number,
  status: Record<string, unknown>,
  now = new Date().toISOString(),
  correlationId?: string,
): ServiceEvent {
  return serviceEvent(type, clientId, status, now, correlationId);
}
