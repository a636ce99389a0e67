import type { Log } from '../../shared/log.ts';
import { notifiedPause, type TemplateStatusNotification } from '../../templates/template-notifications.ts';
import type { TemplatePauses } from '../../templates/ports.ts';
import { wakePausedJobs } from './paused-jobs.ts';
import type { JobWaker, PausedJobs, ThroughputStore } from './ports.ts';

/** What Meta's webhooks tell the dispatcher: a number's level changed, a template paused or let go (decisions §19, §25). */

/** Meta says a number's quality or throughput changed (`phone_number_quality_update`). */
export interface NumberQualityNotification {
  kind: 'number_quality';
  waba_id: string;
  number_digits: string;
  event: string;
  at: number;
}

/** The number's level is asked again at its next use (decisions §19). */
export async function levelToAskAgain(deps: { levels: Pick<ThroughputStore, 'forget'>; log: Log }, n: NumberQualityNotification) {
  await deps.levels.forget(n.number_digits);
  deps.log.info('throughput level to be asked again', { event: n.event });
  return 'applied' as const;
}

export interface PauseNoticeDeps {
  /** Templates Meta paused or disabled, as the dispatcher reads them. */
  pauses: TemplatePauses;
  /** The jobs asleep on each paused template, and the dispatch queue that wakes them. */
  waking: { pausedJobs: PausedJobs; waker: JobWaker };
  log: Log;
}

/**
 * Meta paused, disabled or let a template go again (decisions §25): its sends wait, fail the rest (132016), or
 * go on. A template no longer paused after a resume or a disablement wakes the jobs asleep on it, on every
 * delivery of the event (a retry wakes what a failed one left). Answers the notification as the template's
 * records take it (its pauses, and `DISABLED` when the pause count disabled it, decisions §34).
 */
export async function pauseNoticed(deps: PauseNoticeDeps, n: TemplateStatusNotification, nowMs: number) {
  const pause = await notifiedPause(deps, n);
  if (pause?.letGo) await wakePausedJobs({ ...deps.waking, log: deps.log }, n, nowMs);
  return pause?.notification ?? n;
}
