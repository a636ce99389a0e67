import type { ThroughputLevel } from '../../shared/ports.ts';

// Each number's pace: its throughput level and the slots of its messages (decisions §19, §23).

/**
 * A sending number's throughput level as last learned from the upstream (decisions §19), by the number's
 * digits: kept so every invocation paces the number alike without asking the upstream each time.
 */
export interface ThroughputStore {
  get(numberDigits: string): Promise<KnownThroughput | undefined>;
  put(numberDigits: string, known: KnownThroughput): Promise<void>;
  /** Makes the next use ask the upstream again (Meta said the number's level changed). */
  forget(numberDigits: string): Promise<void>;
}

export interface KnownThroughput {
  level: ThroughputLevel;
  checkedAtMs: number;
}

/**
 * Paces a sending number across every invocation (decisions §12): reserves `count` consecutive send slots
 * `intervalMs` apart, none before `nowMs`, and answers when the first is. Reservations never overlap. With a
 * `turn`, the booking also holds the number for its rank (sending/lanes.ts) until its last slot and `holdMs`.
 */
export interface Pacer {
  reserve(numberId: string, count: number, intervalMs: number, nowMs: number, turn?: Turn): Promise<number>;
  /**
   * The same, only when the number's next free slot is at most `horizonMs` after `nowMs` and, with a `turn`, no
   * booking of a better rank (a lower number) holds the number at `nowMs` (a shared send's next chunk: it books
   * close ahead, so a send of a few has its slots soon after it, and it gives way to better ranks); otherwise
   * nothing is booked and the answer says when the number is next free, and until when a better rank holds it.
   */
  reserveNear(numberId: string, count: number, intervalMs: number, nowMs: number, horizonMs: number, turn?: Turn): Promise<NearReservation>;
}

/** A shared send's rank on the number (0 best) and how long its booking holds the number after its last slot. */
export interface Turn {
  rank: number;
  holdMs: number;
}

export type NearReservation = { first: number } | { freeAt: number; heldUntil?: number };

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

/** What the upstream answered to one message. */
export type MessageAnswer =
  /** `held`: Meta holds it for quality assessment (`held_for_quality_assessment`, decisions §25) before delivering it. */
  | { kind: 'accepted'; message_id: string; held?: true }
  /** Refused: `retryable` for throughput limits and the upstream's own faults. */
  | { kind: 'refused'; code: string; title: string; retryable: boolean }
  /** No answer in time after the request left: the upstream may have accepted it. */
  | { kind: 'unknown' };

/** Sending messages through the upstream (Cloud API). */
/** Which API a message goes through: `mm`, the Marketing Messages API (`/marketing_messages`, decisions §28). */
export interface MessageRoute {
  api?: 'mm';
}

export interface MessageUpstream {
  /** `reference` comes back with the message's status reports (delivery.ts, messageReference). */
  sendMessage(phoneNumberId: string, message: Record<string, unknown>, reference: string, options?: MessageRoute): Promise<MessageAnswer>;
  /** The WABA's first catalog (SPM messages name it), or undefined. */
  catalogOf(wabaId: string): Promise<string | undefined>;
  /** The number's throughput level as the upstream reports it (decisions §19). */
  throughputOf(phoneNumberId: string): Promise<ThroughputLevel>;
}

// A send's messages at the end of their TTL (decisions §30: reservations end).

/** One message answered `sent` with no final status yet, and its part of its send's reservation. */
export interface UnsettledMessage {
  index: number;
  /** The first position of its block. */
  block: number;
  /** Its part of the reservation, in the month the send reserved in. */
  micros: number;
}

/**
 * Gives back the reserved part of messages whose TTL has passed with no final status: each one still without a
 * delivered, read or failed status and not given back yet is marked, and its part released, in one write; the
 * status path then releases nothing more for it. Answers how many were given back.
 */
export interface TtlReturns {
  returnAtTtlEnd(sendId: string, month: string, messages: UnsettledMessage[], now: string): Promise<number>;
}
