import { wholeJobRelease } from '../dispatch/release.ts';
import { sendableOf } from '../dispatch/job.ts';
import type { Log } from '../../shared/log.ts';
import { laneOf, queueGroupOf } from '../dispatch/lanes.ts';
import type { BlockLedger, HeldJobs, RecipientLists, RecipientOutcome, ReservationReturns, SendRecord, SendRecords } from '../ports.ts';
import { wholeReservationOf } from './unsent-release.ts';
import type { JobQueue } from '../../shared/ports.ts';
import { isRestJob } from '../ab/ab-send.ts';
import { type CompletionDeps, completeIfDone } from '../performance/completion.ts';

export interface ReleaseDeps {
  sends: SendRecords;
  heldJobs: HeldJobs;
  blocks: Pick<BlockLedger, 'settleJob'>;
  queue: JobQueue;
  /** A send found never queued at its time gives back its whole reservation, once (decisions §30). */
  reservationReturns: ReservationReturns;
  recipientLists: Pick<RecipientLists, 'recipients'>;
  log: Log;
  now?: () => string;
  /** Its completion (decisions §33): a send cancelled before its time completes when its held jobs settle. */
  completion?: Omit<CompletionDeps, 'log'>;
}

/**
 * A scheduled send's held jobs that will never go: each settled whole with one outcome, its reservation given
 * back in the same write (decisions §30: reservations end). A job settled already (by the release or an earlier
 * cancel) is settled once: `settleJob` refuses it again, so nothing is given back twice.
 */
export async function settleHeldJobs(
  deps: { heldJobs: Pick<HeldJobs, 'heldJobs'>; blocks: Pick<BlockLedger, 'settleJob'> },
  sendId: string,
  outcome: RecipientOutcome,
) {
  const jobs = await deps.heldJobs.heldJobs(sendId);
  for (const job of jobs) await deps.blocks.settleJob(sendId, job.job, sendableOf(job), outcome, wholeJobRelease(job, outcome));
  return jobs.length;
}

/** A scheduled send whose jobs still wait for its time: not released onto the dispatch queue yet. */
export const isHeld = (send: SendRecord) => Boolean(send.send_at) && !send.released_at;

/** A scheduled send's held jobs onto the dispatch queue, under its tenant's lane; how many there were. */
async function queueHeldJobs(deps: Pick<ReleaseDeps, 'heldJobs' | 'queue'>, send: SendRecord) {
  // A test-first send's rest waits on for its decision (decisions §33, test-decision.ts).
  const jobs = (await deps.heldJobs.heldJobs(send.send_id)).filter((job) => !isRestJob(send.ab, job.job));
  if (jobs.length > 0) await deps.queue.send(jobs as unknown as Record<string, unknown>[], queueGroupOf(send.client_id, laneOf(jobs[0])));
  return jobs.length;
}

/**
 * How long after its acceptance began a `queuing` send may still become `queued`: an acceptance is an HTTP
 * request, over within API Gateway's 30 s; past this it failed for good.
 */
export const ACCEPTANCE_OVER_MS = 60_000;

/**
 * A scheduled send whose acceptance failed after its schedule was made (it stayed `queuing`, or was `abandoned`):
 * its whole reservation given back, unless its acceptance's failure path did so already (the send's mark). A
 * send still `queuing` within ACCEPTANCE_OVER_MS of its acceptance (a `send_at` of now) is looked at again later:
 * it may yet be queued, and a reservation given back under a send that goes would be given back twice.
 */
async function returnWholeReservation(deps: ReleaseDeps, send: SendRecord, now: string): Promise<'retry_later' | undefined> {
  if (send.reservation_returned_at) return undefined;
  if (send.status === 'queuing' && Date.parse(now) - Date.parse(send.created_at) < ACCEPTANCE_OVER_MS) return 'retry_later';
  const returned = await deps.reservationReturns.returnWhole(send.send_id, await wholeReservationOf(deps, send), now);
  deps.log.warn('scheduled send never queued: its reservation', { status: send.status, returned });
  return undefined;
}

/**
 * A scheduled send's time came (decisions §22): its jobs, held since it was accepted, go onto the dispatch
 * queue, and the send is marked released (then it shows `queued`, and its jobs' TTL runs from `send_at`). A
 * send cancelled meanwhile sends nothing: each held job is settled whole `cancelled` (the cancel did so already,
 * decisions §30; this settles what a crashed cancel left). Run twice (the schedule's message delivered twice, or
 * a crash before the mark), the jobs are queued twice, which the dispatcher takes as once (its claims), and a
 * cancelled job is settled once.
 */
export async function releaseScheduledSend(
  deps: ReleaseDeps,
  sendId: string,
): Promise<'released' | 'cancelled' | 'skipped' | 'retry_later'> {
  const send = await deps.sends.get(sendId);
  // Never `queued` (its acceptance failed partway): its jobs are never dispatched, its reservation comes back.
  if (send && send.status !== 'queued')
    return (await returnWholeReservation(deps, send, deps.now?.() ?? new Date().toISOString())) ?? 'skipped';
  // Released already: done.
  if (!send || send.released_at) return 'skipped';
  const jobs = send.cancelled_at ? await settleHeldJobs(deps, sendId, { kind: 'cancelled' }) : await queueHeldJobs(deps, send);
  await deps.heldJobs.markReleased(sendId, deps.now?.() ?? new Date().toISOString());
  deps.log.info('scheduled send released', { jobs, cancelled: Boolean(send.cancelled_at) });
  if (send.cancelled_at && deps.completion)
    await completeIfDone({ ...deps.completion, log: deps.log }, sendId, Date.parse(deps.now?.() ?? new Date().toISOString()));
  return send.cancelled_at ? 'cancelled' : 'released';
}
