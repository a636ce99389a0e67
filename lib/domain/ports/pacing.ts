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

/**
 * A sending number's throughput level (decisions §19, upstream-facts §6.3): `STANDARD` (80/s), `HIGH` (1,000/s
 * after Meta's upgrade), or `COEXISTENCE` (20/s, a number also in use with the WhatsApp Business app).
 */
export type ThroughputLevel = 'STANDARD' | 'HIGH' | 'COEXISTENCE';

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

export interface SendingLimits {
  messagingLimit?: number;
  quality?: string;
}
