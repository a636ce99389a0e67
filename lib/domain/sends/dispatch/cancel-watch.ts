import { CANCEL_CHECK_MS, CANCEL_STALE_MS } from './tuning.ts';

/**
 * Whether a send was cancelled, as one dispatching invocation knows it: learned from each read of the send and
 * asked again (one small consistent read) as the answer ages. A read that fails sends on, as before cancels
 * existed, rather than stopping the send.
 *
 * It asks every CANCEL_CHECK_MS (decisions §22): no message leaves later than this (and the read's own time) after
 * a cancel's answer. Asked beside the sending, so a launch never waits for it: a launch late for its slot takes new
 * slots (sending/slots.ts), and a read slowed by a loaded table would make every launch after it late. At most 4
 * small reads a second per invocation that sends. An answer older than CANCEL_STALE_MS (reads failing or far
 * slower than their interval) is waited for before a launch.
 */
export function cancelWatch(isCancelled: () => Promise<boolean>, clock: { now(): number }, already: boolean) {
  let cancelled = already;
  let checkedAt = clock.now();
  let asking: Promise<void> | undefined;
  const ask = () => {
    if (asking) return asking;
    const askedAt = clock.now();
    asking = isCancelled()
      .then(
        (answer) => {
          cancelled ||= answer;
        },
        () => undefined,
      )
      .finally(() => {
        checkedAt = Math.max(checkedAt, askedAt);
        asking = undefined;
      });
    return asking;
  };
  const age = () => clock.now() - checkedAt;
  const untilFresh = async () => {
    while (!cancelled && age() > CANCEL_STALE_MS) await ask();
  };
  return {
    get cancelled() {
      return cancelled;
    },
    /** What another read of the send said. */
    learn(value: boolean) {
      cancelled ||= value;
    },
    /** Asks now (during a long wait for a slot), so the answer is fresh at the launch. */
    askAhead() {
      if (!cancelled) void ask();
    },
    /** Before a launch: asks again once the answer is CANCEL_CHECK_MS old; nothing to await unless it is stale. */
    beforeLaunch(): Promise<void> | undefined {
      if (cancelled) return undefined;
      if (age() > CANCEL_STALE_MS) return untilFresh();
      if (age() >= CANCEL_CHECK_MS) void ask();
      return undefined;
    },
  };
}

/** A send's cancel as one dispatching invocation knows it. */
export type CancelWatch = ReturnType<typeof cancelWatch>;
