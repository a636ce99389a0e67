import { type DispatchDeps, type DispatchResult, dispatchJob } from '#lib/domain/sends/dispatch/dispatcher.ts';
import { DEFAULT_DISPATCH } from '#lib/wiring/dispatch-settings.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import type { MessageAnswer } from '#lib/domain/sends/dispatch/ports.ts';
import type { SendRecord } from '#lib/domain/sends/ports.ts';
import { demoTemplate, jobOf, recipient, templateOf } from './dispatch-jobs.ts';
import { EventClock, type TaskClock } from './event-clock.ts';
import { MemoryPacer } from './memory/sends/pacer.ts';
import { memorySends } from './memory/sends/sends.ts';
import { MemoryThroughputStore } from './memory/sends/throughput-store.ts';

/**
 * Jobs dispatching on one STANDARD number on a discrete-event clock (issues 32, 33), as the queue runs them: each
 * job is one send of its own, a job that comes back is run again after its delay by a new invocation of 50 s,
 * and the upstream, the store and the pacer answer after latencies drawn from a seed. What left and when is
 * recorded at launch. The unit tests of pacing and of lanes share it.
 */
export interface NumberPlan {
  jobs: number[];
  /** Which jobs are MARKETING campaigns (the bulk lane, decisions §23); the others are UTILITY (priority). */
  marketing: boolean[];
  /** Each job's template category, when given: in place of `marketing` (issue 44's ranks). */
  categories?: string[];
  /** When each job reaches the queue, from the start (0 when not given). */
  arrivals?: number[];
  /** All the jobs are parts of one send (`send-0`, in order), as a campaign's are; otherwise each is a send. */
  oneSend?: boolean;
  stalls: { at: number; ms: number }[];
  lateInvocation: { which: number; upToMs: number } | null;
  answerMs: { min: number; spread: number };
  storeMs: number;
  seed: number;
}

export interface Launch {
  /** The job's index in the plan. */
  job: number;
  to: string;
  at: number;
}

/** One invocation of a job: when it began and ended, and what it answered. */
export interface Invocation {
  job: number;
  began: number;
  ended: number;
  result: DispatchResult;
}

/** A small, fast generator of numbers in [0, 1) from a seed, for latencies drawn per call. */
export function randomFrom(seed: number) {
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

const trackOrder = demoTemplate('track_order');

/** A job's template as the plan files it: its category when given, else MARKETING or the demo's UTILITY. */
const categoryOf = (plan: NumberPlan, i: number) =>
  plan.categories?.[i] ? { template: templateOf(plan.categories[i]) } : plan.marketing[i] ? { template: templateOf('MARKETING') } : {};

export async function dispatchOnOneNumber(plan: NumberPlan) {
  const clock = new EventClock();
  const start = clock.now();
  for (const stall of plan.stalls) clock.stallAt(start + stall.at, stall.ms);
  const random = randomFrom(plan.seed);
  const store = memorySends();
  const pacer = new MemoryPacer();
  const launches: Launch[] = [];
  const invocations: Invocation[] = [];
  const upstream = {
    async sendMessage(_phone: string, message: Record<string, unknown>, reference: string): Promise<MessageAnswer> {
      launches.push({ job: Number(reference.split(':')[1].slice('send-'.length)), to: String(message.to), at: clock.now() });
      await clock.sleep(plan.answerMs.min + random() * plan.answerMs.spread);
      return { kind: 'accepted', message_id: `wamid.${launches.length}` };
    },
    catalogOf: async () => 'catalog-1',
    throughputOf: async () => 'STANDARD' as const,
  };
  const sends = slowed(store.sends, clock, () => random() * plan.storeMs);
  const blocks = slowed(store.blocks, clock, () => random() * plan.storeMs);
  const pacing = slowed(pacer, clock, () => random() * plan.storeMs);
  const jobs: DispatchJob[] = [];
  const total = plan.jobs.reduce((sum, n) => sum + n, 0);
  let firstIndex = 0;
  for (const [i, size] of plan.jobs.entries()) {
    const sendId = `send-${plan.oneSend ? 0 : i}`;
    const record: SendRecord = {
      send_id: sendId,
      client_id: 7,
      did: '5215550001',
      template: { name: trackOrder.name, language: trackOrder.language },
      status: 'queuing',
      created_at: new Date(start).toISOString(),
      total: plan.oneSend ? total : size,
      jobs: plan.oneSend ? plan.jobs.length : 1,
    };
    if (!plan.oneSend || i === 0) {
      await store.sends.begin(record);
      await store.sends.settle(record, 'queued');
    }
    const part = plan.oneSend ? { job: i + 1, jobs: plan.jobs.length, first_index: firstIndex, total_contacts: total } : {};
    jobs.push(
      jobOf(
        Array.from({ length: size }, (_, k) => recipient(`52${i}${String(k).padStart(6, '0')}`)),
        { send_id: sendId, ...part, ...categoryOf(plan, i) },
      ),
    );
    firstIndex += size;
  }
  const levels = new MemoryThroughputStore();
  /** One job to its end: a job not finished comes back after its delay, as the queue redelivers it. */
  const runToEnd = async (job: DispatchJob, index: number) => {
    await clock.sleep(plan.arrivals?.[index] ?? 0);
    for (let turn = 0; turn < 200; turn++) {
      const own = plan.lateInvocation?.which === index && turn === 0 ? clock.late(() => random() * plan.lateInvocation!.upToMs) : clock;
      const began = clock.now();
      const deadline = began + 50_000;
      const deps: DispatchDeps = {
        sends,
        blocks,
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
      invocations.push({ job: index, began, ended: clock.now(), result });
      if (result.outcome !== 'retry_later') return result;
      await clock.sleep(result.afterSeconds * 1000);
    }
    throw new Error(`job ${index} never finished`);
  };
  await clock.run(Promise.all(jobs.map((job, i) => runToEnd(job, i))));
  return { start, launches, invocations, pacer, store: store.sends };
}
