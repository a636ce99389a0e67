import { describe, expect, it } from 'vitest';
import { cancelWatch } from '#lib/domain/sends/dispatch/cancel-watch.ts';
import { CANCEL_CHECK_MS } from '#lib/domain/sends/dispatch/tuning.ts';

/** The dispatcher's knowledge of a cancel (decisions §22): never relied on when older than CANCEL_CHECK_MS. */
describe('cancelWatch', () => {
  const world = (answers: (boolean | Error)[]) => {
    let now = 0;
    const reads: number[] = [];
    const isCancelled = async () => {
      reads.push(now);
      const answer = answers.shift() ?? false;
      if (answer instanceof Error) throw answer;
      return answer;
    };
    const advance = (ms: number) => {
      now += ms;
    };
    return { clock: { now: () => now }, advance, reads, isCancelled };
  };

  it('lets a launch go without waiting for a read, and asks beside it once the answer is CANCEL_CHECK_MS old', async () => {
    // Prepare
    const { clock, advance, reads, isCancelled } = world([false]);
    const watch = cancelWatch(isCancelled, clock, false);
    // Act
    const fresh = watch.beforeLaunch();
    advance(CANCEL_CHECK_MS);
    const ageing = watch.beforeLaunch();
    // Assess
    expect([fresh, ageing]).toEqual([undefined, undefined]);
    expect(reads).toEqual([CANCEL_CHECK_MS]);
  });

  it('makes a launch wait for a fresh answer when the last one is stale (a second old), and sees the cancel', async () => {
    // Prepare
    const { clock, advance, isCancelled } = world([true]);
    const watch = cancelWatch(isCancelled, clock, false);
    advance(1_001);
    // Act
    const stale = watch.beforeLaunch();
    await stale;
    // Assess
    expect(stale).toBeInstanceOf(Promise);
    expect(watch.cancelled).toBe(true);
  });

  it('sends on when a read fails, and keeps what another read of the send said', async () => {
    // Prepare
    const { clock, advance, isCancelled } = world([new Error('throttled')]);
    const watch = cancelWatch(isCancelled, clock, false);
    advance(1_001);
    // Act
    await watch.beforeLaunch();
    const afterFailure = watch.cancelled;
    watch.learn(true);
    // Assess
    expect(afterFailure).toBe(false);
    expect(watch.cancelled).toBe(true);
    expect(watch.beforeLaunch()).toBeUndefined();
  });
});
