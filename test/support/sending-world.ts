import { type DispatchDeps, type JobRun, takeJob } from '#lib/domain/sends/dispatch/run.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import type { ThroughputLevel } from '#lib/domain/shared/ports.ts';
import type { MessageUpstream } from '#lib/domain/sends/dispatch/ports.ts';
import type { SendRecord } from '#lib/domain/sends/ports.ts';
import { DEFAULT_DISPATCH } from '#lib/wiring/dispatch-settings.ts';
import { recipient, sendOfJobs } from './dispatch-jobs.ts';
import { MemoryPacer } from './memory/sends/pacer.ts';
import { memorySends } from './memory/sends/sends.ts';
import { MemoryThroughputStore } from './memory/sends/throughput-store.ts';

/**
 * A small world for the sending core's unit tests (test/unit/sends/dispatch/): the send `send-1` of `total` recipients
 * on in-memory stores, a clock whose sleeps pass at once, and an upstream that accepts every message and logs it.
 */
export async function sendingWorld(total: number, options: { status?: SendRecord['status']; level?: ThroughputLevel } = {}) {
  let now = Date.parse('2026-11-27T10:00:00Z');
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      now += Math.max(0, ms);
    },
  };
  const { sends, blocks, sendTable } = memorySends();
  const send = sendOfJobs(total, now);
  await sends.begin(send);
  if (options.status !== 'queuing') await sends.settle(send, options.status === 'abandoned' ? 'abandoned' : 'queued');
  const calls: string[] = [];
  const upstream: MessageUpstream = {
    async sendMessage(_phone: string, message: Record<string, unknown>) {
      calls.push(String(message.to));
      return { kind: 'accepted' as const, message_id: `wamid.${calls.length}` };
    },
    async catalogOf() {
      return undefined;
    },
    async throughputOf() {
      return options.level ?? 'STANDARD';
    },
  };
  const deps = memoryDispatchDeps({ sends, blocks, upstream, clock });
  return { deps, sends, blocks, sendTable, clock, calls, status: async () => (await sends.get('send-1'))! };
}

/**
 * The sending core's dependencies on in-memory stores: the stores, upstream and clock a test gives, and any
 * setting it changes; the rest as an invocation has them (a pacer and throughput store of its own, no logs).
 */
export const memoryDispatchDeps = (
  given: Pick<DispatchDeps, 'sends' | 'blocks' | 'upstream' | 'clock'> & Partial<DispatchDeps>,
): DispatchDeps => ({
  pacer: new MemoryPacer(),
  levels: new MemoryThroughputStore(),
  log: silentLog,
  settings: DEFAULT_DISPATCH,
  holder: 'invocation-1',
  remainingMs: () => 300_000,
  random: () => 0.5,
  ...given,
});

/** `count` recipients with distinct numbers. */
export const recipientsOf = (count: number) => Array.from({ length: count }, (_, i) => recipient(String(5215550000 + i)));

/** A job taken up by `takeJob`: its run (a test that expects it to be taken). */
export async function takenRun(deps: DispatchDeps, job: DispatchJob): Promise<JobRun> {
  const run = await takeJob(deps, job);
  if ('outcome' in run) throw new Error(`the job was not taken: ${JSON.stringify(run)}`);
  return run;
}
