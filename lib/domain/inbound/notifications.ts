import type { TierUpdate } from '../money/pricing/tiers.ts';
import type { PeopleNotification } from '../people/people-notifications.ts';
import type { NumberQualityNotification } from '../sends/dispatch/meta-notices.ts';
import type { MessageStatusNotification } from '../sends/message-statuses.ts';
import type { TemplateNotification } from '../templates/template-notifications.ts';

/**
 * Meta's webhooks (decisions §13), in the domain's words. The endpoint only checks the signature and queues
 * each change; the worker reads it (lib/adapters/meta/webhook-payload.ts) and hands each notification to the
 * area that owns its kind. Every notification is applied so that a repeat, or one older than what the records
 * already know, changes nothing.
 */

/** One change of a notification as it is queued: the WABA it is about, when Meta sent it, its field and value. */
export interface NotifiedChange {
  waba_id: string;
  /** The id of the request that brought it: the events it causes carry it (decisions §15). */
  correlation_id?: string;
  /** Meta's entry time, epoch milliseconds. */
  at: number;
  field: string;
  value: unknown;
  /**
   * A message status's partition key on the statuses' stream (statusStreamKey), where the endpoint puts it
   * (issue 54); a change without one is queued.
   */
  stream_key?: string;
}

/** What a change says, once read: each kind's shape is its area's. */
export type MetaNotification =
  | TemplateNotification
  | NumberQualityNotification
  /** A WABA reached another volume tier of a market's pricing category (decisions §26): the ledger's count raised. */
  | ({ kind: 'pricing_tier' } & TierUpdate)
  /** The WABA's business accepted the Marketing Messages API's terms (`MM_LITE_TERMS_SIGNED`, decisions §28). */
  | { kind: 'mm_onboarded'; waba_id: string; at: number }
  | MessageStatusNotification
  | PeopleNotification;

export type NotificationKind = MetaNotification['kind'];
export type NotificationOf<K extends NotificationKind> = Extract<MetaNotification, { kind: K }>;

/** What became of one notification: the worker retries `later` ones after a short while. */
export type NotificationOutcome = 'applied' | 'unchanged' | 'ignored' | 'later';
