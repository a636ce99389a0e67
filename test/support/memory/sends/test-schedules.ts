import type { TestSchedules } from '#lib/domain/sends/ab/ports.ts';

/** One-time schedules of test-first sends' decisions (decisions §33), as made; `failing` refuses them. */
export class MemoryTestSchedules implements TestSchedules {
  readonly schedules = new Map<string, string>();
  failing = false;
  async scheduleDecision(sendId: string, atIso: string) {
    if (this.failing) throw new Error('scheduler down');
    if (!this.schedules.has(sendId)) this.schedules.set(sendId, atIso);
  }
}
