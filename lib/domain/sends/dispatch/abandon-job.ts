import { releaseOf, wholeJobRelease } from './release.ts';
import { blockAt, skippedOutcome } from './claims.ts';
import { ABANDONED_HELD_RETRY_S, BLOCK } from './tuning.ts';
import type { DispatchResult } from './run.ts';
import type { DispatchJob } from '../dispatch-job.ts';
import { sendableOf } from './job.ts';
import type { Log } from '../../shared/log.ts';
import { performanceMarkOf } from '../figures.ts';
import { type CompletionDeps, completeIfDone } from '../performance/completion.ts';
import type { ClaimLease, PositionOutcome, RecipientOutcome, BlockLedger, SendRecords } from '../ports.ts';

/** What a recipient of a job given up on becomes (issue 23). */
export const ABANDONED: RecipientOutcome = {
  kind: 'failed',
  code: 'dispatch_abandoned',
  title: 'The dispatcher gave up on this job after its retries; nothing more of it is sent',
};

export interface AbandonDeps {
  sends: SendRecords;
  blocks: BlockLedger;
  clock: { now(): number };
  log: Log;
  /** Who settles: the abandoning invocation, so its claims are told apart from a dispatcher's. */
  holder: string;
  /** Its send's completion (decisions §33): an abandoned last job completes the send. */
  completion?: Omit<CompletionDeps, 'log'>;
}

/**
 * A dispatch job that reached its dead-letter queue (its retries spent) can no longer be sent, so its send
 * would stay `sending` for ever: every recipient of it not settled yet is settled `failed` /
 * `dispatch_abandoned` and the send completes. A job never begun is settled whole in one write; a begun one
 * block by block, each claimed first (what its earlier holders recorded stays; a dead invocation's launches
 * without a recorded answer are `outcome_unknown`, as the dispatcher would); a block a live invocation holds is left to it, and the job
 * comes back. Nothing is ever sent from here.
 */
export async function abandonJob(deps: AbandonDeps, job: DispatchJob): Promise<DispatchResult> {
  const result = await abandoned(deps, job);
  if (result.outcome === 'done' && deps.completion)
    await completeIfDone({ ...deps.completion, log: deps.log }, job.send_id, deps.clock.now());
  return result;
}

async function abandoned(deps: AbandonDeps, job: DispatchJob): Promise<DispatchResult> {
  const { sends, blocks, clock, log } = deps;
  const send = await sends.get(job.send_id);
  if (send?.status !== 'queued') return { outcome: 'dropped', reason: send ? `send ${send.status}` : 'unknown send' };
  const sendable = sendableOf(job);
  if (await blocks.settleJob(job.send_id, job.job, sendable, ABANDONED, wholeJobRelease(job, ABANDONED))) {
    log.warn('dispatch job abandoned before it began', { recipients: sendable });
    return { outcome: 'done' };
  }
  const lease: ClaimLease = { holder: deps.holder, untilMs: clock.now() };
  let held = false;
  let abandoned = 0;
  for (let start = 0; start < job.recipients.length; start += BLOCK) {
    const { block, positions } = blockAt(job, start);
    const claim = await blocks.claimBlock(job.send_id, block, lease, clock.now());
    if (claim === 'busy') held = true;
    if (typeof claim === 'string') continue;
    // What earlier holders recorded stays (a dead one's launches unknown); the rest is abandoned.
    const outcomes = positions.map((p, offset): PositionOutcome => skippedOutcome(p) ?? claim.claimed.get(offset) ?? ABANDONED);
    const settled = positions.map((p, offset) => ({ position: p.position, outcome: outcomes[offset] }));
    await blocks.settleBlock(job.send_id, block, outcomes, lease, releaseOf(job, settled), performanceMarkOf(job, clock.now()));
    abandoned += outcomes.filter((o) => o === ABANDONED).length;
  }
  log.warn('dispatch job abandoned', { recipients: abandoned, blocks_held_elsewhere: held });
  return held
    ? { outcome: 'retry_later', reason: 'blocks held by a live invocation', afterSeconds: ABANDONED_HELD_RETRY_S }
    : { outcome: 'done' };
}
