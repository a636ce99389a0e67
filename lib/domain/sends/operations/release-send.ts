import { wholeJobRelease } from '../dispatch/release.ts';
import { sendableOf } from '../dispatch/job.ts';
import type { Log } from '../../shared/log.ts';
import { laneOf, queueGroupOf } from '../dispatch/lanes.ts';
import type { BlockLedger, HeldJobs, SendRecords } from '../ports.ts';
import type { JobQueue } from '../../shared/ports.ts';

export interface ReleaseDeps {
  sends: SendRecords;
  heldJobs: HeldJobs;
  blocks: Pick<BlockLedger, 'settleJob'>;
  queue: JobQueue;
  log: Log;
  now?: () => string;
}

/**
 * A scheduled send's time came (decisions §22): its jobs, held since it was accepted, go onto the dispatch
 * queue, and the send is marked released (then it shows `queued`, and its jobs' TTL runs from `send_at`). A
 * send cancelled meanwhile sends nothing: each held job is settled whole `cancelled`. Run twice (the schedule's
 * message delivered twice, or a crash before the mark), the jobs are queued twice, which the dispatcher takes as
 * once (its claims), and a cancelled job is settled once.
 */
export async function releaseScheduledSend(deps: ReleaseDeps, sendId: string): Promise<'released' | 'cancelled' | 'skipped'> {
  const send = await deps.sends.get(sendId);
  // Never `queued` (its acceptance failed partway): its jobs are never dispatched. Released already: done.
  if (send?.status !== 'queued' || send.released_at) return 'skipped';
  const jobs = await deps.heldJobs.heldJobs(sendId);
  if (send.cancelled_at) {
    for (const job of jobs)
      await deps.blocks.settleJob(sendId, job.job, sendableOf(job), { kind: 'cancelled' }, wholeJobRelease(job, { kind: 'cancelled' }));
  } else if (jobs.length > 0)
    await deps.queue.send(jobs as unknown as Record<string, unknown>[], queueGroupOf(send.client_id, laneOf(jobs[0])));
  await deps.heldJobs.markReleased(sendId, deps.now?.() ?? new Date().toISOString());
  deps.log.info('scheduled send released', { jobs: jobs.length, cancelled: Boolean(send.cancelled_at) });
  return send.cancelled_at ? 'cancelled' : 'released';
}
