import type { Person } from '../person.ts';

// Opt-outs and Meta's pauses (decisions §25); people by phone number and BSUID (decisions §28).

/**
 * An entry of a client's suppression list (decisions §25, §28): who, from where, when, and its evidence. It is
 * kept under its phone number's digits when it has one, else under `U#<user_id>` (suppressionKey).
 */
export interface Suppression {
  /** The number's digits. */
  phone?: string;
  /** The person's BSUID (decisions §28). */
  user_id?: string;
  source: 'api' | '131050' | 'inbound' | 'meta_preferences';
  at: string;
  /** The inbound message, or the refused message, that put it there. */
  message_id?: string;
  reason?: string;
}

/** Each client's suppression list (decisions §25): read a batch of recipients at a time, never scanned. */
export interface SuppressionStore {
  /**
   * Adds the entry unless its key is on the list already (the first entry stays): whether it was added. The key
   * is `suppressionKey(entry)` unless given (an entry of both halves kept under its BSUID too).
   */
  add(clientId: number, entry: Suppression, key?: string): Promise<boolean>;
  /** Whether the key (a number's digits, or `U#<user_id>`) was on the list. */
  remove(clientId: number, key: string): Promise<boolean>;
  /** The entries among these keys (digits, or `U#<user_id>`), by key: one BatchGetItem a hundred. */
  get(clientId: number, keys: string[]): Promise<Map<string, Suppression>>;
  list(clientId: number, page: { offset: number; size: number }): Promise<{ entries: Suppression[]; total: number }>;
}

/** A template Meta paused (for a while) or disabled (decisions §25), as the dispatcher reads it. */
export interface TemplatePause {
  state: 'paused' | 'disabled';
  since_ms: number;
  /** When a pause ends by itself (3 hours the first time, 6 the next), if no event ends it first. */
  until_ms?: number;
  /** How many times it was paused. */
  pauses: number;
}

/**
 * What moves a template's pause (decisions §25): Meta's status event at Meta's time (whole seconds), a 132015
 * refusal at this service's time, or the dispatcher finding the pause's period over.
 */
export type PauseChange =
  | { kind: 'event'; event: 'paused' | 'resumed' | 'disabled'; at_ms: number }
  | { kind: 'refusal'; at_ms: number }
  | { kind: 'period_over'; at_ms: number };

/** Templates Meta paused or disabled: written by its status events and by a 132015 refusal. */
export interface TemplatePauses {
  get(wabaId: string, templateId: string): Promise<TemplatePause | null>;
  /** Paused from `atMs` for Meta's period (the first 3 h, then 6 h), unless a pause is in force: the pause now. */
  pause(wabaId: string, templateId: string, atMs: number): Promise<TemplatePause>;
  /**
   * Meta's event, compared with the newest one taken (lib/domain/pause-events.ts): an older one changes nothing,
   * so a `PAUSED` that arrives after the resume that followed it does not pause again. Conditional on the item
   * as read, so two events racing end as their times say. The pause after it (null: the template may send).
   */
  notified(wabaId: string, templateId: string, change: Extract<PauseChange, { kind: 'event' }>): Promise<TemplatePause | null>;
  /** Ends a pause whose period is over at `nowMs`; a pause that began meanwhile is kept. */
  resume(wabaId: string, templateId: string, nowMs: number): Promise<void>;
}

/** A dispatch job asleep while its template is paused: what brings its queue message back early. */
export interface PausedJob {
  send_id: string;
  job: number;
  /** The queue's receipt of the message as last received. */
  receipt: string;
  /** When the message comes back by itself (its recheck, PAUSED_RECHECK_SECONDS). */
  due_ms: number;
}

/**
 * The jobs waiting on each paused template (decisions §25): kept when a job goes to sleep, read and forgotten when
 * Meta's resume wakes them. One item a job: as many as the paused sends' jobs, none written while nothing is paused.
 */
export interface PausedJobs {
  /** Kept until woken, or until a while after its recheck (it expires). */
  keep(wabaId: string, templateId: string, job: PausedJob): Promise<void>;
  /** Up to `limit` of the jobs waiting on the template. */
  waiting(wabaId: string, templateId: string, limit: number): Promise<PausedJob[]>;
  forget(wabaId: string, templateId: string, jobs: Pick<PausedJob, 'send_id' | 'job'>[]): Promise<void>;
}

/** The dispatch queue's side of a wake: received messages made visible again at once. */
export interface JobWaker {
  /** How many came back; one the queue no longer holds under that receipt (received again, deleted) is skipped. */
  wake(receipts: string[]): Promise<number>;
}

/**
 * Who is who (decisions §28): the pairs of phone number and BSUID learned for a business portfolio (`scope`),
 * with the pairs they replaced kept as history.
 */
export interface IdentityMap {
  /** The known pairs of these phones (digits) and BSUIDs, in a BatchGetItem per 100 keys. */
  pairsOf(scope: string, keys: { phone?: string; user_id?: string }[]): Promise<Map<string, Person>>; // key: `p:<digits>` or `u:<bsuid>` → the person with both halves
  /** Learns pairs; writes only what is new or changed (conditional), keeps the old pair as history. */
  learn(scope: string, pairs: { phone: string; user_id: string; username?: string; at: string }[]): Promise<number>;
  /** A person moved to a new BSUID or number (user_changed_user_id / user_changed_number / user_id_update). */
  move(scope: string, from: { phone?: string; user_id?: string }, to: { phone?: string; user_id?: string }, at: string): Promise<void>;
}
