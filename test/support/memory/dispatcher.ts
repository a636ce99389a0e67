import { dispatchJob } from '#lib/domain/sends/dispatch/dispatcher.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { DEFAULT_DISPATCH } from '#lib/wiring/dispatch-settings.ts';
import { MemoryPacer } from './sends/pacer.ts';
import { MemoryThroughputStore } from './sends/throughput-store.ts';
import type { MemoryWorld } from './world.ts';

/**
 * The dispatcher on the world's stores, on a clock of its own from `startIso`: every message accepted (as
 * `wamid.<n>`) but those `refuse` names (refused with its code, not worth another try), what it launched counted, and
 * each message as it went.
 */
export function dispatcherOf(world: MemoryWorld, startIso: string, refuse?: (message: Record<string, unknown>) => string | undefined) {
  const launched: string[] = [];
  const messages: Record<string, unknown>[] = [];
  let now = Date.parse(startIso);
  const deps = {
    sends: world.sends,
    blocks: world.blocks,
    pacer: new MemoryPacer(),
    levels: new MemoryThroughputStore(),
    upstream: {
      sendMessage: async (phone: string, message: Record<string, unknown>) => {
        launched.push(phone);
        messages.push(message);
        const code = refuse?.(message);
        if (code) return { kind: 'refused' as const, code, title: 'Refused', retryable: false };
        return { kind: 'accepted' as const, message_id: `wamid.${launched.length}` };
      },
      catalogOf: async () => undefined,
      throughputOf: async () => 'STANDARD' as const,
    },
    log: silentLog,
    clock: {
      now: () => now,
      sleep: async (ms: number) => {
        now += ms;
      },
    },
    settings: DEFAULT_DISPATCH,
    holder: 'h',
    remainingMs: () => 300_000,
    // Each person's MARKETING count under the client's frequency cap (decisions §33).
    marketingCounts: world.marketingCounts,
  };
  return { launched, messages, dispatch: (job: unknown) => dispatchJob(deps, job as DispatchJob) };
}
