import { ATTEMPTS, BACKOFF_MS, IN_FLIGHT, MAX_BACKOFF_MS, SLICE_MS } from './tuning.ts';

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
   * message's answer may take (GRAPH_MESSAGE_TIMEOUT_MS and SETTLE_MARGIN_MS).
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

/**
 * The settings the dispatcher's own table gives (tuning.ts). The others are lib/config.ts's, each with its default
 * there: the composition root reads them and passes them in (lib/wiring/dispatch-settings.ts), so no default is
 * written twice.
 */
export const TUNED_SETTINGS = {
  attempts: ATTEMPTS,
  backoffMs: BACKOFF_MS,
  maxBackoffMs: MAX_BACKOFF_MS,
  inFlight: IN_FLIGHT,
  sliceMs: SLICE_MS,
} satisfies Partial<DispatchSettings>;

/** The settings lib/config.ts sets, which the composition root passes in. */
export type ConfiguredSettings = Omit<DispatchSettings, keyof typeof TUNED_SETTINGS>;

/** The dispatcher's time: the real one in Lambda, a discrete-event clock in tests and the simulation. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}
