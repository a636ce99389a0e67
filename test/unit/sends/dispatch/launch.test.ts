import { describe, expect, it } from 'vitest';
import type { MessageAnswer } from '#lib/domain/sends/dispatch/ports.ts';
import { type LaunchContext, launchOne } from '#lib/domain/sends/dispatch/launch.ts';
import { DEFAULT_DISPATCH } from '#lib/wiring/dispatch-settings.ts';
import { jobOf, recipient } from '../../../support/dispatch-jobs.ts';
import { EventClock } from '../../../support/event-clock.ts';
import { MemoryPacer } from '../../../support/memory/sends/pacer.ts';

/**
 * One message's launch alone (sending/launch.ts), on the discrete-event clock: what it answers for each of the
 * upstream's answers, and when its retries go. The number's pace is 100 ms; backoffs are half their bound.
 */
const INTERVAL = 100;
const THROTTLED: MessageAnswer = { kind: 'refused', code: '130429', title: 'Rate limit hit', retryable: true };

function launch(answers: MessageAnswer[], context: Partial<LaunchContext> = {}) {
  const clock = new EventClock();
  const pacer = new MemoryPacer();
  const calls: number[] = [];
  const upstream = {
    async sendMessage(): Promise<MessageAnswer> {
      calls.push(clock.now() - start);
      return answers.shift() ?? { kind: 'accepted', message_id: 'wamid.1' };
    },
    catalogOf: async () => undefined,
    throughputOf: async () => 'STANDARD' as const,
  };
  const start = clock.now();
  const deps = { upstream, pacer, clock, settings: DEFAULT_DISPATCH, random: () => 0.5 };
  const job = jobOf([recipient('5215550100')]);
  const outcome = clock.run(
    launchOne(deps, job, 0, {
      expiresAt: Number.POSITIVE_INFINITY,
      intervalMs: INTERVAL,
      isStopped: () => undefined,
      isCancelled: () => false,
      ...context,
    }),
  );
  return { outcome, calls, pacer, clock, start };
}

describe('one message’s launch (sending/launch.ts)', () => {
  it('answers sent with the upstream’s message id, in one request', async () => {
    // Prepare / Act
    const { outcome, calls } = launch([{ kind: 'accepted', message_id: 'wamid.A' }]);
    // Assess
    expect(await outcome).toEqual({ kind: 'sent', message_id: 'wamid.A' });
    expect(calls).toEqual([0]);
  });

  it('tries a throughput refusal again after its backoff, each retry on a new slot of the number', async () => {
    // Prepare: the number booked 1 s ahead by others, so a retry waits for its slot after the backoff
    const { outcome, calls, pacer, clock } = launch([THROTTLED, THROTTLED]);
    pacer.next.set('110001', clock.now() + 1_000);
    // Act
    const result = await outcome;
    // Assess: backoffs 100 ms then 200 ms (half of 200 and 400), then the number's next slots
    expect(result.kind).toBe('sent');
    expect(calls).toEqual([0, 1_000, 1_000 + INTERVAL + 200 - 100]);
    expect(pacer.reservations.map((r) => r.count)).toEqual([1, 1]);
  });

  it('gives up after its attempts with the last refusal', async () => {
    // Prepare
    const { outcome, calls } = launch(Array.from({ length: DEFAULT_DISPATCH.attempts }, () => THROTTLED));
    // Act
    const result = await outcome;
    // Assess
    expect(result).toEqual({ kind: 'failed', code: '130429', title: 'Rate limit hit' });
    expect(calls).toHaveLength(DEFAULT_DISPATCH.attempts);
  });

  it('never retries a refusal that is not retryable', async () => {
    // Prepare / Act
    const { outcome, calls } = launch([{ kind: 'refused', code: '131026', title: 'Undeliverable', retryable: false }]);
    // Assess
    expect(await outcome).toEqual({ kind: 'failed', code: '131026', title: 'Undeliverable' });
    expect(calls).toHaveLength(1);
  });

  it('never sends again a message whose answer did not come: it may have gone', async () => {
    // Prepare / Act
    const { outcome, calls } = launch([{ kind: 'unknown' }]);
    // Assess
    expect(await outcome).toMatchObject({ kind: 'failed', code: 'outcome_unknown' });
    expect(calls).toHaveLength(1);
  });

  it('sends no retry once the send is cancelled, stopped or past its time', async () => {
    // Prepare: each refused once, then the send changes before the retry
    let changed = false;
    const cancel = launch([THROTTLED], { isCancelled: () => changed });
    const stop = launch([THROTTLED], { isStopped: () => (changed ? { code: '132015', title: 'Paused' } : undefined) });
    changed = true;
    const expire = launch([THROTTLED], { expiresAt: Date.parse('2026-11-26T10:00:00.050Z') });
    // Act / Assess
    expect(await cancel.outcome).toEqual({ kind: 'cancelled' });
    expect(await stop.outcome).toEqual({ kind: 'failed', code: '132015', title: 'Paused' });
    expect(await expire.outcome).toEqual({ kind: 'expired' });
    expect([cancel.calls.length, stop.calls.length, expire.calls.length]).toEqual([1, 1, 1]);
  });
});
