import { describe, expect, it } from 'vitest';
import type { MessageAnswer } from '#lib/domain/sends/dispatch/ports.ts';
import { sendStatusOf } from '#lib/domain/sends/send-status.ts';
import { type DispatchDeps, type DispatchResult, dispatchJob } from '#lib/domain/sends/dispatch/dispatcher.ts';
import { DEFAULT_DISPATCH } from '#lib/wiring/dispatch-settings.ts';
import { jobOf, recipient, sendOfJobs } from '../../../support/dispatch-jobs.ts';
import { EventClock } from '../../../support/event-clock.ts';
import { memoryDispatchDeps } from '../../../support/sending-world.ts';
import { memorySends } from '../../../support/memory/sends/sends.ts';
import { MemoryTemplatePauses } from '../../../support/memory/templates/template-pauses.ts';

/**
 * A send whose template Meta pauses (decisions §25), on in-memory adapters and the discrete-event clock: the
 * upstream refuses with 132015 while the template is paused; the send waits, its rest pending, and goes on.
 */
const RECHECK_MS = 2_000;

async function pausedWorld(
  total: number,
  pauseAfter: number,
  pauseMs: number,
  options: { unpauseEvent?: boolean; recheckMs?: number } = {},
) {
  const clock = new EventClock();
  const { sends, blocks, sendTable } = memorySends();
  const send = sendOfJobs(total, clock.now());
  await sends.begin(send);
  await sends.settle(send, 'queued');
  const pauses = new MemoryTemplatePauses();
  const accepted: string[] = [];
  let pausedUntil = 0;
  const upstream = {
    async sendMessage(_phone: string, message: Record<string, unknown>): Promise<MessageAnswer> {
      if (accepted.length === pauseAfter && pausedUntil === 0) pausedUntil = clock.now() + pauseMs;
      if (clock.now() < pausedUntil) return { kind: 'refused', code: '132015', title: 'Template is paused', retryable: false };
      accepted.push(String(message.to));
      return { kind: 'accepted', message_id: `wamid.${accepted.length}` };
    },
    catalogOf: async () => undefined,
    throughputOf: async () => 'STANDARD' as const,
  };
  const deps = (n: number): DispatchDeps =>
    memoryDispatchDeps({
      sends,
      blocks,
      upstream,
      clock,
      settings: { ...DEFAULT_DISPATCH, messagesPerSecondCap: 80, pausedRecheckMs: options.recheckMs ?? RECHECK_MS },
      holder: `invocation-${n}`,
      remainingMs: () => 600_000,
      pauses,
    });
  const job = jobOf(Array.from({ length: total }, (_, i) => recipient(`52155501${String(i).padStart(4, '0')}`)));
  /** Meta's UNPAUSE event when the pause ends (message_template_status_update, applied as the worker does). */
  const unpause = async () => {
    while (pausedUntil === 0) await clock.sleep(100);
    await clock.sleep(pausedUntil - clock.now());
    await pauses.notified(job.waba_id, job.template.id, { kind: 'event', event: 'resumed', at_ms: clock.now() });
  };
  /** The job as the queue runs it: a new invocation each turn, after the delay it asked for; what each turn saw. */
  const run = () =>
    clock.run(
      (async () => {
        if (options.unpauseEvent !== false) void unpause();
        const seen: { result: DispatchResult; status: string }[] = [];
        for (let n = 0; n < 200; n++) {
          const result = await dispatchJob(deps(n), job);
          seen.push({ result, status: sendStatusOf((await sends.get('send-1'))!).status });
          if (result.outcome !== 'retry_later') return seen;
          await clock.sleep(result.afterSeconds * 1000);
        }
        throw new Error(
          `the job never finished: ${JSON.stringify(seen.slice(0, 6).map((t) => [t.result, t.status]))} … ${JSON.stringify(seen.slice(-3))}`,
        );
      })(),
      6 * 3_600_000,
    );
  /** Meta disables the template `afterMs` into the run (a status event, applied as the worker does). */
  const disableAfter = (afterMs: number) =>
    void clock
      .sleep(afterMs)
      .then(() => pauses.notified(job.waba_id, job.template.id, { kind: 'event', event: 'disabled', at_ms: clock.now() }));
  return { sends, sendTable, pauses, accepted, run, clock, disableAfter };
}

describe('a paused template (decisions §25)', () => {
  it('pauses the send with its rest pending, then sends every recipient once when the pause is over', async () => {
    // Prepare: Meta pauses the template after 300 messages, for 10 s, and says so when it ends
    const { run, sends, sendTable, accepted } = await pausedWorld(1_000, 300, 10_000);
    // Act
    const turns = await run();
    // Assess: paused (its rest pending), resumed, complete; each recipient accepted once
    const paused = turns.find((t) => t.result.outcome === 'retry_later' && t.result.reason === 'template paused');
    expect(paused?.status).toBe('paused');
    expect(turns.at(-1)?.result).toEqual({ outcome: 'done' });
    expect(accepted).toHaveLength(1_000);
    expect(new Set(accepted).size).toBe(1_000);
    const status = sendStatusOf((await sends.get('send-1'))!);
    expect(status).toMatchObject({ status: 'completed', sent: 1_000, failed: 0, pending: 0 });
    expect(sendTable.events.map((e) => e.type)).toEqual(['send.paused', 'send.resumed']);
    expect(sendTable.events[0].data).toMatchObject({ status: 'paused', send_id: 'send-1' });
  });

  it('resumes by itself when Meta’s pause period is over, without an event', async () => {
    // Prepare: no UNPAUSE event; jobs look again every 15 minutes
    const { run, sends, accepted, clock } = await pausedWorld(500, 200, 10_000, { unpauseEvent: false, recheckMs: 900_000 });
    const start = clock.now();
    // Act
    const turns = await run();
    // Assess: the first pause is 3 hours, then the rest went, each once
    expect(turns.at(-1)?.result).toEqual({ outcome: 'done' });
    expect(clock.now() - start).toBeGreaterThanOrEqual(3 * 3_600_000);
    expect(new Set(accepted).size).toBe(500);
    expect(accepted).toHaveLength(500);
    expect(sendStatusOf((await sends.get('send-1'))!)).toMatchObject({ status: 'completed', sent: 500 });
  });

  it('fails the rest with 132016 when the template is disabled during its pause', async () => {
    // Prepare: paused after 100 messages for a long while; Meta disables it meanwhile
    const world = await pausedWorld(300, 100, 3_600_000, { unpauseEvent: false });
    // Act
    world.disableAfter(60_000);
    const turns = await world.run();
    // Assess
    expect(turns.at(-1)?.result).toEqual({ outcome: 'done' });
    const status = sendStatusOf((await world.sends.get('send-1'))!);
    expect(status).toMatchObject({ sent: 100, failed: 200, pending: 0, errors: [expect.objectContaining({ code: '132016', count: 200 })] });
  });
});
