import type { JobWaker, PausedJob, PausedJobs } from '#lib/domain/sends/dispatch/ports.ts';
import { copy } from '../copy.ts';

/** The jobs waiting on each paused template, as the table keeps them: one entry a job, the last kept wins. */
export class MemoryPausedJobs implements PausedJobs {
  readonly waiting_ = new Map<string, Map<string, PausedJob>>();
  private of(wabaId: string, templateId: string) {
    const id = `${wabaId}|${templateId}`;
    const jobs = this.waiting_.get(id) ?? new Map<string, PausedJob>();
    this.waiting_.set(id, jobs);
    return jobs;
  }
  async keep(wabaId: string, templateId: string, job: PausedJob) {
    this.of(wabaId, templateId).set(`${job.send_id}#${job.job}`, copy(job));
  }
  async waiting(wabaId: string, templateId: string, limit: number) {
    return copy([...this.of(wabaId, templateId).values()].slice(0, limit));
  }
  async forget(wabaId: string, templateId: string, jobs: Pick<PausedJob, 'send_id' | 'job'>[]) {
    for (const job of jobs) this.of(wabaId, templateId).delete(`${job.send_id}#${job.job}`);
  }
}

/** A queue's wake: each receipt handed to `onWake` (the test's queue brings that job back); `failing` refuses all. */
export class MemoryJobWaker implements JobWaker {
  readonly woken: string[] = [];
  failing = false;
  constructor(private readonly onWake: (receipt: string) => boolean = () => true) {}
  async wake(receipts: string[]) {
    if (this.failing) throw new Error('the queue is unreachable');
    this.woken.push(...receipts);
    return receipts.filter((r) => this.onWake(r)).length;
  }
}
