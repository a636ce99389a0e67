import type { HeldJobs } from '#lib/domain/sends/ports.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { copy } from '../copy.ts';
import type { MemorySendTable } from './send-table.ts';

export class MemoryHeldJobs implements HeldJobs {
  constructor(private readonly table: MemorySendTable) {}

  async holdJobs(sendId: string, jobs: DispatchJob[]) {
    if (this.table.failing) throw new Error('storage down');
    this.table.held.set(sendId, copy(jobs));
  }
  async heldJobs(sendId: string) {
    return copy(this.table.held.get(sendId) ?? []);
  }
  async markReleased(sendId: string, at: string) {
    const send = this.table.sends.get(sendId);
    if (send && !send.released_at) send.released_at = at;
  }
}
