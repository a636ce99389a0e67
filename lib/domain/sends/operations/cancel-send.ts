import type { Caller } from '../../shared/caller.ts';
import { Conflict } from '../../shared/errors.ts';
import type { BlockLedger, HeldJobs, RecipientLists, SendRecord, SendRecords } from '../ports.ts';
import { sendStatusOf, visibleSend } from '../send-status.ts';
import { isHeld, settleHeldJobs } from './release-send.ts';
import { blocksOf } from './send-recipients.ts';
import { sendableIn, unsentReleaseOf } from './unsent-release.ts';

export interface CancelDeps {
  sends: SendRecords;
  /** A scheduled send's held jobs and their settlement: given, a cancel gives back its reservation at once. */
  heldJobs?: HeldJobs;
  blocks?: Pick<BlockLedger, 'settleJob'>;
  /** A queued send's recipients as accepted: given (with `blocks`), its jobs not yet begun are settled at once. */
  recipientLists?: Pick<RecipientLists, 'recipients'>;
  now?: () => string;
}

/**
 * A queued send's jobs that no dispatcher has begun, each settled whole `cancelled` with its recipients' part of
 * the reservation given back in the same write (decisions §30: at a cancel, not as each job leaves the queue).
 * `settleJob` refuses a job begun or settled already, so a job the dispatcher holds settles block by block as
 * before, and nothing is given back twice; the dispatcher then finds the job settled and sends none of it.
 */
export async function settleUnbegunJobs(
  deps: { blocks: Pick<BlockLedger, 'settleJob'>; recipientLists: Pick<RecipientLists, 'recipients'> },
  send: SendRecord,
) {
  const blocks = blocksOf(send);
  let settled = 0;
  for (let job = 1; job <= send.jobs; job++) {
    const sendable = await sendableIn(
      deps,
      send.send_id,
      blocks.filter((b) => b.job === job),
    );
    if (await deps.blocks.settleJob(send.send_id, job, sendable.length, { kind: 'cancelled' }, unsentReleaseOf(send, sendable))) settled++;
  }
  return settled;
}

/** What a cancel settles at once (decisions §30): a held send's jobs, else a queued send's jobs not yet begun. */
async function settleWhatWillNotGo(deps: CancelDeps, send: SendRecord) {
  if (send.status !== 'queued' || !deps.blocks) return;
  if (isHeld(send)) {
    if (deps.heldJobs) await settleHeldJobs({ heldJobs: deps.heldJobs, blocks: deps.blocks }, send.send_id, { kind: 'cancelled' });
  } else if (deps.recipientLists) await settleUnbegunJobs({ blocks: deps.blocks, recipientLists: deps.recipientLists }, send);
}

/**
 * POST /v1/sends/{send_id}/cancel (decisions §22): the dispatcher sends no recipient it has not claimed yet
 * and counts it `cancelled`; a claimed one finishes as it would. Cancelling again changes nothing; a send with
 * nothing pending (completed) cannot be cancelled. What will not go is settled `cancelled` here, so its
 * reservation comes back at once (decisions §30: reservations end): a scheduled send's held jobs (its release
 * then finds every job settled), or a queued send's jobs no dispatcher has begun.
 */
export async function cancelSend(deps: CancelDeps, caller: Caller, sendId: string) {
  const send = await visibleSend(deps, caller, sendId);
  const status = sendStatusOf(send).status;
  if (status === 'completed') throw new Conflict('The send has completed: nothing is left to cancel', 'send_completed');
  if (status !== 'cancelled') await deps.sends.cancel(sendId, deps.now?.() ?? new Date().toISOString());
  // Again on a second cancel: it settles what a first one that crashed halfway left unsettled.
  await settleWhatWillNotGo(deps, send);
  return { send_id: sendId, status: 'cancelled' as const };
}
