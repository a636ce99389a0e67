import type { SeenPair } from '../people/people-notifications.ts';
import type { Log } from '../shared/log.ts';
import type { MetaNotification, NotificationKind, NotificationOf, NotificationOutcome } from './notifications.ts';

/** What a handler is told beside a notification: now, the request that brought it (decisions §15), and its log. */
export interface NotificationContext {
  now: string;
  correlationId?: string;
  log: Log;
}

/** A kind applied one notification at a time, in the batch's order. */
export interface EachHandler<N> {
  each: (n: N, context: NotificationContext) => Promise<NotificationOutcome>;
  /** The pairs of phone number and BSUID a notification shows, learned before the batch is applied (decisions §28). */
  seen?: (n: N) => SeenPair[];
}

/** A kind applied all of a batch at once, after the rest (a send's statuses take one write per batch). */
export interface BatchHandler<N> {
  together: (ns: N[], context: NotificationContext) => Promise<NotificationOutcome[]>;
  seen?: (n: N) => SeenPair[];
}

export type KindHandler<N> = EachHandler<N> | BatchHandler<N>;

/** Meta's notifications by kind: every kind has its handler, in the area that owns it. */
export type NotificationHandlers = { [K in NotificationKind]: KindHandler<NotificationOf<K>> };

export interface NotificationRoutes {
  handlers: NotificationHandlers;
  /** Who is who, learned once a batch before anything of it is applied, so its opt-outs find the pairs it shows. */
  learn: (pairs: SeenPair[]) => Promise<unknown>;
  log: Log;
}

/** One notification of a batch, with the id of the request that brought it and the log of its message. */
export interface RoutedNotification {
  notification: MetaNotification;
  correlationId?: string;
  log?: Log;
}

/**
 * A notification's handler, or undefined for a kind the table does not know (read by a newer reader than this
 * code). The table is keyed by kind, so the handler found takes a notification of that kind.
 */
function handlerOf(handlers: NotificationHandlers, n: MetaNotification): KindHandler<MetaNotification> | undefined {
  return Object.hasOwn(handlers, n.kind) ? (handlers[n.kind] as unknown as KindHandler<MetaNotification>) : undefined;
}

/**
 * A batch of notifications, each handed to its kind's handler; outcomes in the batch's order. Kinds applied one
 * at a time go in order; kinds applied together go after, each in one call. An unknown kind is ignored.
 */
export async function routeNotifications(
  routes: NotificationRoutes,
  batch: RoutedNotification[],
  now = new Date().toISOString(),
): Promise<NotificationOutcome[]> {
  const outcomes: NotificationOutcome[] = new Array(batch.length);
  await routes.learn(batch.flatMap(({ notification: n }) => handlerOf(routes.handlers, n)?.seen?.(n) ?? []));
  const together = new Map<BatchHandler<MetaNotification>, number[]>();
  for (const [at, { notification: n, correlationId, log = routes.log }] of batch.entries()) {
    const handler = handlerOf(routes.handlers, n);
    if (!handler) {
      log.warn('meta notification ignored: a kind no handler takes', { kind: n.kind });
      outcomes[at] = 'ignored';
    } else if ('each' in handler) outcomes[at] = await handler.each(n, { now, correlationId, log });
    else {
      const places = together.get(handler) ?? [];
      places.push(at);
      together.set(handler, places);
    }
  }
  for (const [handler, places] of together) {
    const results = await handler.together(
      places.map((at) => batch[at].notification),
      { now, log: routes.log },
    );
    places.forEach((at, i) => {
      outcomes[at] = results[i];
    });
  }
  return outcomes;
}
