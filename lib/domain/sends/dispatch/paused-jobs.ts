import type { Log } from '../../shared/log.ts';
import type { JobWaker, PausedJobs } from './ports.ts';
import type { TemplatePauses } from '../../templates/ports.ts';
import { WAKE_PAGE, WAKE_PAGES } from './tuning.ts';

/**
 * A paused send's jobs wake when Meta lets its template go (decisions §25), not at their recheck: each job that
 * goes to sleep on a paused template is kept under it with its queue receipt, and Meta's resume makes those
 * messages visible again. Every step may fail or time out: the job's recheck (PAUSED_RECHECK_SECONDS) still
 * brings it back, and a job delivered twice sends nothing twice (its blocks' claims).
 */

/** The job as these steps need it: its send, its number in the send, its template. */
export interface SleepingJob {
  send_id: string;
  job: number;
  waba_id: string;
  template: { id: string };
}

/**
 * A job going to sleep on its paused template for `afterSeconds`: kept with its receipt, then (once its message's
 * redelivery is set) `comeBackNow` says whether the pause ended meanwhile, before the resume could see the job
 * kept; then it comes back at once. Without it kept (the write failed), it sleeps its recheck.
 */
export async function sleepOnPause(
  deps: { pausedJobs: PausedJobs; pauses: TemplatePauses; log: Log },
  job: SleepingJob,
  sleep: { receipt: string; afterSeconds: number; nowMs: number },
) {
  try {
    await deps.pausedJobs.keep(job.waba_id, job.template.id, {
      send_id: job.send_id,
      job: job.job,
      receipt: sleep.receipt,
      due_ms: sleep.nowMs + sleep.afterSeconds * 1000,
    });
  } catch (error) {
    deps.log.warn('paused job not kept: it comes back at its recheck', { error: (error as Error).name });
    return { comeBackNow: async () => false };
  }
  return {
    /** Asked after the redelivery is set: a resume that came before the job was kept did not wake it. */
    comeBackNow: async () => {
      const pause = await deps.pauses.get(job.waba_id, job.template.id);
      return !(pause?.state === 'paused' && (pause.until_ms ?? 0) > sleep.nowMs);
    },
  };
}

/**
 * Meta let the template go (or disabled it: the rest of its sends fails at once): the jobs asleep on it come
 * back now. Those whose recheck is over already came back by themselves; all are forgotten. A wake that fails
 * throws before anything is forgotten, so the notification's retry wakes them again.
 */
export async function wakePausedJobs(
  deps: { pausedJobs: PausedJobs; waker: JobWaker; log: Log },
  template: { waba_id: string; template_id: string },
  nowMs: number,
) {
  let asleep = 0;
  let woken = 0;
  for (let page = 0; page < WAKE_PAGES; page++) {
    const jobs = await deps.pausedJobs.waiting(template.waba_id, template.template_id, WAKE_PAGE);
    const sleeping = jobs.filter((j) => j.due_ms > nowMs);
    if (sleeping.length > 0) woken += await deps.waker.wake(sleeping.map((j) => j.receipt));
    asleep += sleeping.length;
    if (jobs.length > 0) await deps.pausedJobs.forget(template.waba_id, template.template_id, jobs);
    if (jobs.length < WAKE_PAGE) break;
  }
  if (asleep > 0) deps.log.info('paused jobs woken: their template may be sent again', { asleep, woken });
  return woken;
}
