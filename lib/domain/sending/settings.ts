/** How the dispatcher sends (decisions §12, §19, §23); lib/config.ts reads what may be set. */
export interface DispatchSettings {
  /** MESSAGES_PER_SECOND: caps every number's pace when set; otherwise each goes at its level. */
  messagesPerSecondCap?: number;
  /** Attempts per message for retryable refusals, the first included. */
  attempts: number;
  /** First backoff; doubles per attempt, with full jitter, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Messages awaiting the upstream's answer at once, per invocation. */
  inFlight: number;
  /**
   * An invocation stops taking blocks this long before its time is up, so it settles what it sent: longer than a
   * message's answer may take (the worker gives the message timeout and 5 s).
   */
  safetyMs: number;
  /** A claim outlives its invocation by this much before another invocation may call it lost. */
  leaseMarginMs: number;
  /**
   * How long an invocation sends before it hands the rest of its job back (decisions §23): invocations cycle in
   * seconds, so a new job is taken up within a slice however long the campaigns before it.
   */
  sliceMs: number;
  /** How long a job of a paused send waits before it looks again (decisions §25; at most its pause's end). */
  pausedRecheckMs: number;
}

export const DEFAULT_DISPATCH: DispatchSettings = {
  attempts: 6,
  backoffMs: 200,
  maxBackoffMs: 10_000,
  inFlight: 64,
  safetyMs: 15_000,
  leaseMarginMs: 30_000,
  sliceMs: 3_000,
  pausedRecheckMs: 300_000,
};

/** The dispatcher's time: the real one in Lambda, a discrete-event clock in tests and the simulation. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}
