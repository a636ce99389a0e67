import type { Caller } from '../shared/caller.ts';
import { Conflict, NotFound } from '../shared/errors.ts';
import type { ServiceEvent } from './events.ts';
import type { DeliveryLog, WebhookConfigStore } from './ports.ts';
import type { JobQueue } from '../shared/ports.ts';
import { actingClient } from '../shared/tenancy.ts';
import { parseHttpsUrl } from '../shared/url-guard.ts';
import { DeliveryChanged, type DeliveryStatus, signingSecrets, type WebhookDelivery } from './webhook.ts';

/**
 * Delivers one service event to its client's webhook (decisions §6, §15) and keeps its delivery log. The event
 * id is the message id (`webhook-id`: the same on every retry and replay, so receivers can drop repeats); how a
 * message is signed and carried is the sender's.
 */
export interface WebhookSender {
  /**
   * Signs the message with every given secret, POSTs it to a public HTTPS address (or, where allowed, a local
   * receiver); resolves with the HTTP status.
   */
  send(url: URL, secrets: string[], message: { id: string; timestamp: Date; body: string; correlationId?: string }): Promise<number>;
}

/** Which receive of the event's queue message this is, how many come before the dead-letter queue, the schedule. */
export interface Attempt {
  receive: number;
  maxReceives: number;
  retryBaseSeconds: number;
  now: Date;
  /** A replay (decisions §15): sent again even when delivered before. */
  replay?: boolean;
}

export type AttemptResult =
  | { outcome: 'delivered' | 'skipped' | 'already_delivered' }
  | { outcome: 'retry'; afterSeconds: number; reason: string }
  /** The last receive failed too: the log says failed, the message goes on to the dead-letter queue. */
  | { outcome: 'failed'; reason: string };

export interface DeliveryDeps {
  configs: WebhookConfigStore;
  sender: WebhookSender;
  log: DeliveryLog;
  /** The local stack's `ALLOW_LOCAL_WEBHOOKS` (decisions §15): never set in a deployment. */
  allowLocalReceivers?: boolean;
}

/** Seconds to hide a failed message before its next try: `base` doubling per receive, capped at 2 hours. */
export function retryDelaySeconds(receiveCount: number, base = 30): number {
  return Math.min(base * 2 ** Math.max(0, receiveCount - 1), 7200);
}

/** `http://127.0.0.1:<port>/…`: the only receiver the local stack may call besides public HTTPS ones. */
export function isLocalReceiver(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' && url.hostname === '127.0.0.1' && url.port !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** What the receiver gets: the event as decisions §6 shows it (the correlation id travels as a header). */
export const eventBody = (event: ServiceEvent) =>
  JSON.stringify({ id: event.id, type: event.type, occurred_at: event.occurred_at, client_id: event.client_id, data: event.data });

export async function deliverEvent(deps: DeliveryDeps, event: ServiceEvent, attempt: Attempt): Promise<AttemptResult> {
  const previous = await deps.log.get(event.id);
  // A queue message delivered again after a success (SQS is at least once) sends nothing twice; a replay does.
  if (previous?.delivery.status === 'delivered' && !attempt.replay) return { outcome: 'already_delivered' };
  const base: WebhookDelivery = previous?.delivery ?? {
    id: event.id,
    client_id: event.client_id,
    event_id: event.id,
    type: event.type,
    status: 'pending',
    attempts: 0,
    created_at: attempt.now.toISOString(),
  };
  const config = await deps.configs.get(event.client_id);
  if (!config?.active) {
    await deps.log.save({ ...base, status: 'skipped', next_attempt_at: undefined }, event, previous?.delivery ?? null);
    return { outcome: 'skipped' };
  }
  const url =
    deps.allowLocalReceivers && isLocalReceiver(config.url) ? { ok: true as const, url: new URL(config.url) } : parseHttpsUrl(config.url);
  let status: number | undefined;
  let error: string | undefined;
  if (!url.ok) error = `webhook URL refused: ${url.reason}`;
  else {
    try {
      status = await deps.sender.send(url.url, signingSecrets(config, attempt.now), {
        id: event.id,
        timestamp: attempt.now,
        body: eventBody(event),
        correlationId: event.correlation_id,
      });
      if (status < 200 || status >= 300) error = `webhook answered ${status}`;
    } catch (failure) {
      error = `webhook not reachable: ${(failure as Error).message}`;
    }
  }
  const tried = { ...base, attempts: base.attempts + 1, last_status_code: status, last_error: error };
  if (error === undefined) {
    await deps.log.save(
      { ...tried, status: 'delivered', last_error: undefined, next_attempt_at: undefined, delivered_at: attempt.now.toISOString() },
      event,
      previous?.delivery ?? null,
    );
    return { outcome: 'delivered' };
  }
  if (attempt.receive >= attempt.maxReceives) {
    await deps.log.save({ ...tried, status: 'failed', next_attempt_at: undefined }, event, previous?.delivery ?? null);
    return { outcome: 'failed', reason: error };
  }
  const afterSeconds = retryDelaySeconds(attempt.receive, attempt.retryBaseSeconds);
  const next = new Date(attempt.now.getTime() + afterSeconds * 1000).toISOString();
  await deps.log.save({ ...tried, status: 'pending', next_attempt_at: next }, event, previous?.delivery ?? null);
  return { outcome: 'retry', afterSeconds, reason: error };
}

/** The page of GET /v1/webhook/deliveries (decisions §15). */
export async function listDeliveries(
  log: DeliveryLog,
  caller: Caller,
  input: { client_id?: number; status?: DeliveryStatus; page?: number; size?: number },
) {
  const clientId = actingClient(caller, input.client_id);
  const page = input.page ?? 1;
  const size = Math.min(input.size ?? 20, 100);
  const { deliveries, total } = await log.list(clientId, input.status, { offset: (page - 1) * size, size });
  return { data: deliveries.map(deliveryView), total, page, page_size: size };
}

/** A delivery as decisions §15 shows it, in its order; absent fields are left out. */
export function deliveryView(d: WebhookDelivery) {
  return {
    id: d.id,
    event_id: d.event_id,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    ...(d.last_status_code !== undefined && { last_status_code: d.last_status_code }),
    ...(d.last_error !== undefined && { last_error: d.last_error }),
    ...(d.next_attempt_at !== undefined && { next_attempt_at: d.next_attempt_at }),
    created_at: d.created_at,
    ...(d.delivered_at !== undefined && { delivered_at: d.delivered_at }),
  };
}

/**
 * POST /v1/webhook/deliveries/{id}/replay: the event goes on the delivery queue again, for the client's current
 * configuration, with its own id. Queued first, then the log says pending (a worker faster than that has
 * written its own outcome, which stays).
 */
export async function replayDelivery(deps: { log: DeliveryLog; queue: JobQueue }, caller: Caller, id: string) {
  const found = await deps.log.get(id);
  if (!found || (found.delivery.client_id !== caller.clientId && !caller.isBsp)) throw new NotFound(`No webhook delivery ${id}`);
  if (!found.event) throw new Conflict('This delivery’s event was too large to keep; it cannot be replayed');
  await deps.queue.send([{ detail: found.event, replay: true }]);
  await deps.log
    .save({ ...found.delivery, status: 'pending', next_attempt_at: undefined }, found.event, found.delivery)
    .catch((error: unknown) => {
      if (!(error instanceof DeliveryChanged)) throw error;
    });
  return { id, status: 'pending' as const };
}
