import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DISPATCH, type DispatchDeps, dispatchJob } from '#lib/domain/dispatch.ts';
import type { DispatchJob } from '#lib/domain/dispatch-job.ts';
import { silentLog } from '#lib/domain/log.ts';
import type { MessageAnswer, SendRecord } from '#lib/domain/ports.ts';
import { peakSecond } from '../support/accept-times.ts';
import { demoTemplate, jobOf, recipient } from '../support/dispatch-jobs.ts';
import { EventClock, type TaskClock } from '../support/event-clock.ts';
import { MemoryPacer, MemorySendStore, MemoryThroughputStore } from '../support/memory/stores.ts';

/**
 * The pace the dispatcher makes, on a discrete-event clock (issue 32): 2 to 4 jobs on one STANDARD number (80 a
 * second) at once, under random schedules of whole-process stalls, one invocation whose timers fire late, slow
 * upstream answers and a slow store. Whatever the schedule, the union of launches (the moment each message
 * request leaves) holds at most 1.1 × 80 in any second, every recipient is sent exactly once, and the number's
 * pacing item takes at most one write per 20 messages. No wall time is involved.
 */
const RATE = 80;
const trackOrder = demoTemplate('track_order');

/** A small, fast generator of numbers in [0, 1) from a seed, for latencies drawn per call. */
function randomFrom(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** Every method of `target` first waits `latency()` of virtual time: a store slower than its answers. */
function slowed<T extends object>(target: T, clock: TaskClock, latency: () => number): T {
  return new Proxy(target, {
    get(object, name, receiver) {
      const value = Reflect.get(object, name, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await clock.sleep(latency());
        return value.apply(object, args);
      };
    },
  });
}

interface Schedule {
  jobs: number[];
  stalls: { at: number; ms: number }[];
  lateInvocation: { which: number; upToMs: number } | null;
  answerMs: { min: number; spread: number };
  storeMs: number;
  seed: number;
}

/** Schedules of jobs of these sizes, with at most `stalls` stalls in the first `within` ms and timers up to `lateMs` late. */
const schedules = (sizes: { min: number; max: number; jobs: number }, stalls: { most: number; within: number }, lateMs: number) =>
  fc.record<Schedule>({
    jobs: fc.array(fc.integer(sizes), { minLength: 2, maxLength: sizes.jobs }),
    stalls: fc.array(fc.record({ at: fc.integer({ min: 0, max: stalls.within }), ms: fc.integer({ min: 20, max: 3_000 }) }), {
      maxLength: stalls.most,
    }),
    lateInvocation: fc.option(fc.record({ which: fc.nat({ max: sizes.jobs - 1 }), upToMs: fc.integer({ min: 10, max: lateMs }) }), {
      nil: null,
    }),
    answerMs: fc.record({ min: fc.integer({ min: 1, max: 200 }), spread: fc.integer({ min: 0, max: 800 }) }),
    storeMs: fc.integer({ min: 0, max: 60 }),
    seed: fc.integer(),
  });
const schedule = schedules({ min: 1, max: 300, jobs: 4 }, { most: 4, within: 12_000 }, 400);

async function dispatchOnOneNumber(plan: Schedule) {
  const clock = new EventClock();
  const start = clock.now();
  for (const stall of plan.stalls) clock.stallAt(start + stall.at, stall.ms);
  const random = randomFrom(plan.seed);
  const store = new MemorySendStore();
  const pacer = new MemoryPacer();
  const launches: { send: string; to: string; at: number }[] = [];
  const upstream = {
    async sendMessage(_phone: string, message: Record<string, unknown>, reference: string): Promise<MessageAnswer> {
      launches.push({ send: reference.split(':')[1], to: String(message.to), at: clock.now() });
      await clock.sleep(plan.answerMs.min + random() * plan.answerMs.spread);
      return { kind: 'accepted', message_id: `wamid.${launches.length}` };
    },
    catalogOf: async () => 'catalog-1',
    throughputOf: async () => 'STANDARD' as const,
  };
  const sends = slowed(store, clock, () => random() * plan.storeMs);
  const pacing = slowed(pacer, clock, () => random() * plan.storeMs);
  const jobs: DispatchJob[] = [];
  for (const [i, size] of plan.jobs.entries()) {
    const sendId = `send-${i}`;
    const record: SendRecord = {
      send_id: sendId,
      client_id: 7,
      did: '5215550001',
      template: { name: trackOrder.name, language: trackOrder.language },
      status: 'queuing',
      created_at: new Date(start).toISOString(),
      total: size,
      jobs: 1,
    };
    await store.begin(record);
    await store.settle(record, 'queued');
    jobs.push(
      jobOf(
        Array.from({ length: size }, (_, k) => recipient(`52${i}${String(k).padStart(6, '0')}`)),
        { send_id: sendId },
      ),
    );
  }
  const levels = new MemoryThroughputStore();
  /** One job to its end: a job not finished comes back after its delay, as the queue redelivers it. */
  const runToEnd = async (job: DispatchJob, index: number) => {
    for (let turn = 0; turn < 50; turn++) {
      const own = plan.lateInvocation?.which === index && turn === 0 ? clock.late(() => random() * plan.lateInvocation!.upToMs) : clock;
      const deadline = clock.now() + 50_000;
      const deps: DispatchDeps = {
        sends,
        pacer: pacing,
        levels,
        upstream,
        log: silentLog,
        clock: own,
        settings: DEFAULT_DISPATCH,
        holder: `invocation-${index}-${turn}`,
        remainingMs: () => deadline - clock.now(),
        random,
      };
      const result = await dispatchJob(deps, job);
      if (result.outcome !== 'retry_later') return result;
      await clock.sleep(result.afterSeconds * 1000);
    }
    throw new Error(`job ${index} never finished`);
  };
  await clock.run(Promise.all(jobs.map((job, i) => runToEnd(job, i))));
  return { launches, pacer, store };
}

describe('the dispatcher’s pace on a discrete-event clock (issue 32)', () => {
  it('keeps every second at launch within 1.1 × the rate and sends each recipient once, whatever stalls, with a write of the pacing item per block and per stall it meets', async () => {
    await fc.assert(
      fc.asyncProperty(schedule, async (plan) => {
        // Act
        const { launches, pacer, store } = await dispatchOnOneNumber(plan);
        const total = plan.jobs.reduce((sum, n) => sum + n, 0);
        // Assess
        const perRecipient = new Map<string, number>();
        for (const l of launches) perRecipient.set(`${l.send}/${l.to}`, (perRecipient.get(`${l.send}/${l.to}`) ?? 0) + 1);
        expect(perRecipient.size).toBe(total);
        expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
        for (const [i, size] of plan.jobs.entries()) expect((await store.get(`send-${i}`))?.counts?.sent).toBe(size);
        expect(peakSecond(launches.map((l) => l.at))).toBeLessThanOrEqual(RATE * 1.1);
        // The pacing item: one write a block, one more for each stall a block with slots booked meets (a job's
        // current block and the next, booked while the current one sends), and for an
        // invocation whose timers fire late a few while its spacing doubles to what it keeps (at most 7 a block).
        const blocksOf = (n: number) => Math.ceil(n / 90);
        const lateBlocks = plan.lateInvocation && plan.jobs[plan.lateInvocation.which] ? blocksOf(plan.jobs[plan.lateInvocation.which]) : 0;
        const writes = plan.jobs.reduce((sum, n) => sum + blocksOf(n), 0) + 2 * plan.stalls.length * plan.jobs.length + 7 * lateBlocks;
        expect(pacer.reservations.length).toBeLessThanOrEqual(writes);
      }),
      { numRuns: Number(process.env.PACE_RUNS ?? 40) },
    );
  });

  it('writes the pacing item at most once per 20 messages at a production send’s size, with stalls and a busy invocation', async () => {
    const production = schedules({ min: 400, max: 1000, jobs: 3 }, { most: 3, within: 20_000 }, 150);
    await fc.assert(
      fc.asyncProperty(production, async (plan) => {
        // Act
        const { launches, pacer } = await dispatchOnOneNumber(plan);
        // Assess
        expect(peakSecond(launches.map((l) => l.at))).toBeLessThanOrEqual(RATE * 1.1);
        expect(pacer.reservations.length).toBeLessThanOrEqual(launches.length / 20);
      }),
      { numRuns: Number(process.env.PACE_RUNS ?? 8) },
    );
  });
});
