import type { SendScheduler } from '#lib/domain/sends/ports.ts';

/** One-time schedules of sends, as made (decisions §22); `failing` refuses them. */
export class MemorySendScheduler implements SendScheduler {
  readonly schedules = new Map<string, string>();
  failing = false;
  async schedule(sendId: string, atIso: string) {
    if (this.failing) throw new Error('scheduler down');
    if (!this.schedules.has(sendId)) this.schedules.set(sendId, atIso);
  }
}
