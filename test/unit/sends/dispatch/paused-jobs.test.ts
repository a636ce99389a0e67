import { describe, expect, it } from 'vitest';
import { silentLog } from '#lib/domain/shared/log.ts';
import { applyNotification } from '#lib/domain/inbound/meta-notifications.ts';
import { sleepOnPause, wakePausedJobs } from '#lib/domain/sends/dispatch/paused-jobs.ts';
import type { MessageAnswer } from '#lib/domain/sends/dispatch/ports.ts';
import { sendStatusOf } from '#lib/domain/sends/send-status.ts';
import { dispatchJob } from '#lib/domain/sends/dispatch/dispatcher.ts';
import { PAUSED_REASON } from '#lib/domain/sends/dispatch/pauses.ts';
import { DEFAULT_DISPATCH } from '#lib/wiring/dispatch-settings.ts';
import { jobOf, recipient, sendOfJobs } from '../../../support/dispatch-jobs.ts';
import { EventClock } from '../../../support/event-clock.ts';
import { memoryDispatchDeps } from '../../../support/sending-world.ts';
import { MemoryJobWaker, MemoryPausedJobs } from '../../../support/memory/sends/paused-jobs.ts';
import { memorySends } from '../../../support/memory/sends/sends.ts';
import { MemoryTemplatePauses } from '../../../support/memory/templates/template-pauses.ts';
import { memoryWorld } from '../../../support/memory/world.ts';

/**
 * A paused send's jobs wake on Meta's resume (decisions §25, issue 44), on in-memory adapters and the
 * discrete-event clock: the job runs as the dispatch worker runs it (kept asleep on its template with its receipt,
 * its redelivery set to the recheck), and Meta's status events are applied as the notifications worker does.
 */
const RECHECK_S = 300;
const PAUSE_AFTER = 300;
const RESUME_AFTER_MS = 60_000;

/** The dispatch queue holding one job: received, it sleeps its redelivery, or until a wake names its receipt. */
class OneJobQueue {
  receipt = '';
  receives = 0;
  private wakeNow?: () => void;
  receive() {
    this.receives++;
    this.receipt = `receipt-${this.receives}`;
  }
  comeBackIn(clock: EventClock, seconds: number) {
    return Promise.race([clock.sleep(seconds * 1000), new Promise<void>((wake) => (this.wakeNow = wake))]);
  }
  wake = (receipt: string) => {
    if (receipt !== this.receipt || !this.wakeNow) return false;
    this.wakeNow();
    this.wakeNow = undefined;
    return true;
  };
}

async function resumableWorld(options: { latePausedEvent?: boolean; wakerFails?: boolean } = {}) {
  const clock = new EventClock();
  const metaSecond = () => Math.floor(clock.now() / 1000) * 1000;
  const { sends, blocks, sendTable } = memorySends();
  const total = 1_000;
  await sends.begin(sendOfJobs(total, clock.now()));
  await sends.settle(sendOfJobs(total, clock.now()), 'queued');
  const pauses = new MemoryTemplatePauses();
  const pausedJobs = new MemoryPausedJobs();
  const queue = new OneJobQueue();
  const waker = new MemoryJobWaker(queue.wake);
  waker.failing = options.wakerFails ?? false;
  const job = jobOf(Array.from({ length: total }, (_, i) => recipient(`52155501${String(i).padStart(4, '0')}`)));
  const world = { ...memoryWorld(), pauses, waking: { pausedJobs, waker } };
  const statusEvent = (event: string, at: number) =>
    applyNotification(
      world,
      { kind: 'template_status', waba_id: job.waba_id, template_id: job.template.id, at, event },
      new Date(clock.now()).toISOString(),
    ).catch(() => 'failed');
  /** Meta's side: the template refuses (132015) from PAUSE_AFTER messages until its resume. */
  const meta = { paused: false, pausedAt: 0, resumedAt: 0, accepted: [] as { to: string; at: number }[] };
  const upstream = {
    async sendMessage(_phone: string, message: Record<string, unknown>): Promise<MessageAnswer> {
      if (meta.accepted.length === PAUSE_AFTER && meta.pausedAt === 0) {
        meta.paused = true;
        meta.pausedAt = metaSecond();
        void metaTimeline();
      }
      if (meta.paused) return { kind: 'refused', code: '132015', title: 'Template is paused', retryable: false };
      meta.accepted.push({ to: String(message.to), at: clock.now() });
      return { kind: 'accepted', message_id: `wamid.${meta.accepted.length}` };
    },
    catalogOf: async () => undefined,
    throughputOf: async () => 'STANDARD' as const,
  };
  /** Meta's events: PAUSED at once (or, late, a second after the resume it preceded), APPROVED a minute later. */
  const metaTimeline = async () => {
    if (!options.latePausedEvent) await statusEvent('PAUSED', meta.pausedAt);
    await clock.sleep(RESUME_AFTER_MS);
    meta.paused = false;
    meta.resumedAt = clock.now();
    await statusEvent('APPROVED', metaSecond());
    if (options.latePausedEvent) {
      await clock.sleep(1_000);
      await statusEvent('PAUSED', meta.pausedAt);
    }
  };
  const deps = (n: number) =>
    memoryDispatchDeps({
      sends,
      blocks,
      upstream,
      clock,
      settings: { ...DEFAULT_DISPATCH, messagesPerSecondCap: 80, pausedRecheckMs: RECHECK_S * 1000 },
      holder: `invocation-${n}`,
      remainingMs: () => 600_000,
      pauses,
    });
  /** The job as the dispatch worker and its queue run it, to its end. */
  const run = () =>
    clock.run(
      (async () => {
        for (let n = 0; n < 100; n++) {
          queue.receive();
          const result = await dispatchJob(deps(n), job);
          if (result.outcome !== 'retry_later') return result;
          if (result.reason !== PAUSED_REASON) {
            await clock.sleep(result.afterSeconds * 1000);
            continue;
          }
          const asleep = await sleepOnPause({ pausedJobs, pauses, log: silentLog }, job, {
            receipt: queue.receipt,
            afterSeconds: result.afterSeconds,
            nowMs: clock.now(),
          });
          const back = queue.comeBackIn(clock, result.afterSeconds);
          if (!(await asleep.comeBackNow())) await back;
        }
        throw new Error('the job never finished');
      })(),
      6 * 3_600_000,
    );
  /** How long after Meta's resume the first message after the pause was accepted. */
  const resumedInMs = () => meta.accepted[PAUSE_AFTER].at - meta.resumedAt;
  return { run, sends, sendTable, meta, pauses, job, waker, resumedInMs };
}

describe('a paused send wakes on Meta’s resume (decisions §25)', () => {
  it('goes on within a second of Meta’s APPROVED, not at its recheck, and sends every recipient once', async () => {
    // Prepare
    const world = await resumableWorld();
    // Act
    const result = await world.run();
    // Assess
    expect(result).toEqual({ outcome: 'done' });
    expect(world.resumedInMs()).toBeLessThan(1_000);
    expect(world.meta.accepted).toHaveLength(1_000);
    expect(new Set(world.meta.accepted.map((m) => m.to)).size).toBe(1_000);
    expect(sendStatusOf((await world.sends.get('send-1'))!)).toMatchObject({ status: 'completed', sent: 1_000, failed: 0, pending: 0 });
    expect(world.sendTable.events.map((e) => e.type)).toEqual(['send.paused', 'send.resumed']);
  });

  it('is not paused again by a PAUSED that arrives after the resume that followed it', async () => {
    // Prepare: the 132015 refusal pauses the send; Meta's PAUSED event comes a second after its APPROVED
    const world = await resumableWorld({ latePausedEvent: true });
    // Act
    const result = await world.run();
    // Assess
    expect(result).toEqual({ outcome: 'done' });
    expect(world.resumedInMs()).toBeLessThan(1_000);
    expect(await world.pauses.get(world.job.waba_id, world.job.template.id)).toBeNull();
    expect(world.meta.accepted).toHaveLength(1_000);
    expect(new Set(world.meta.accepted.map((m) => m.to)).size).toBe(1_000);
    expect(world.sendTable.events.map((e) => e.type)).toEqual(['send.paused', 'send.resumed']);
  });

  it('still goes on at its recheck when the wake fails, every recipient once', async () => {
    // Prepare: the queue cannot be reached when the resume comes
    const world = await resumableWorld({ wakerFails: true });
    // Act
    const result = await world.run();
    // Assess
    expect(result).toEqual({ outcome: 'done' });
    expect(world.resumedInMs()).toBeGreaterThan(1_000);
    expect(world.resumedInMs()).toBeLessThanOrEqual(RECHECK_S * 1000);
    expect(world.meta.accepted).toHaveLength(1_000);
    expect(new Set(world.meta.accepted.map((m) => m.to)).size).toBe(1_000);
  });
});

describe('a job going to sleep on its paused template', () => {
  const job = { send_id: 's-1', job: 2, waba_id: 'w-1', template: { id: 't-1' } };
  const pausedAt = 1_000_000;

  it('comes back at once when the resume came before it was kept, which its wake could not find', async () => {
    // Prepare: the template is paused; the job read it so, then Meta's resume is applied and woke nothing
    const pauses = new MemoryTemplatePauses();
    const pausedJobs = new MemoryPausedJobs();
    const waker = new MemoryJobWaker();
    await pauses.notified('w-1', 't-1', { kind: 'event', event: 'paused', at_ms: pausedAt });
    await pauses.notified('w-1', 't-1', { kind: 'event', event: 'resumed', at_ms: pausedAt + 5_000 });
    const wokenBefore = await wakePausedJobs(
      { pausedJobs, waker, log: silentLog },
      { waba_id: 'w-1', template_id: 't-1' },
      pausedAt + 5_000,
    );
    // Act
    const asleep = await sleepOnPause({ pausedJobs, pauses, log: silentLog }, job, {
      receipt: 'r-1',
      afterSeconds: 300,
      nowMs: pausedAt + 5_100,
    });
    // Assess
    expect(wokenBefore).toBe(0);
    expect(await asleep.comeBackNow()).toBe(true);
  });

  it('is woken once by the resume, and one whose recheck is over is forgotten without a wake', async () => {
    // Prepare: two jobs kept, one of them due already
    const pauses = new MemoryTemplatePauses();
    const pausedJobs = new MemoryPausedJobs();
    const waker = new MemoryJobWaker();
    await pauses.notified('w-1', 't-1', { kind: 'event', event: 'paused', at_ms: pausedAt });
    const asleep = await sleepOnPause({ pausedJobs, pauses, log: silentLog }, job, { receipt: 'r-2', afterSeconds: 300, nowMs: pausedAt });
    await sleepOnPause({ pausedJobs, pauses, log: silentLog }, { ...job, job: 3 }, { receipt: 'r-3', afterSeconds: 1, nowMs: pausedAt });
    // Act
    const staysAsleep = await asleep.comeBackNow();
    const woken = await wakePausedJobs({ pausedJobs, waker, log: silentLog }, { waba_id: 'w-1', template_id: 't-1' }, pausedAt + 60_000);
    const again = await wakePausedJobs({ pausedJobs, waker, log: silentLog }, { waba_id: 'w-1', template_id: 't-1' }, pausedAt + 61_000);
    // Assess
    expect(staysAsleep).toBe(false);
    expect(woken).toBe(1);
    expect(waker.woken).toEqual(['r-2']);
    expect(again).toBe(0);
  });

  it('sleeps its recheck when it cannot be kept', async () => {
    // Prepare
    const pauses = new MemoryTemplatePauses();
    const pausedJobs = new MemoryPausedJobs();
    pausedJobs.keep = async () => {
      throw new Error('the table is unreachable');
    };
    // Act
    const asleep = await sleepOnPause({ pausedJobs, pauses, log: silentLog }, job, { receipt: 'r-4', afterSeconds: 300, nowMs: pausedAt });
    // Assess
    expect(await asleep.comeBackNow()).toBe(false);
  });
});
