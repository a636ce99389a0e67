import type { DispatchJob } from '../dispatch-job.ts';
import { BLOCK } from './tuning.ts';
import type { BlockLedger, ClaimLease, PositionOutcome, RecipientBlock, RecordedOutcomes } from '../ports.ts';

/** A position of a job: where it is, and the earlier position it repeats or its suppression (neither is ever sent). */
export interface JobPosition {
  position: number;
  repeat?: number;
  suppressed?: true;
}

/** What a position that is never sent settles as: a repeat, or suppressed (both counted when the send was accepted). */
export const skippedOutcome = (p: JobPosition): PositionOutcome | undefined =>
  p.repeat !== undefined ? { kind: 'duplicate', of: p.repeat } : p.suppressed ? { kind: 'suppressed' } : undefined;

/** The block of a job that starts at its position `start`, and its positions (a repeat names what it repeats). */
export function blockAt(job: DispatchJob, start: number): { block: RecipientBlock; positions: JobPosition[] } {
  const recipients = job.recipients.slice(start, start + BLOCK);
  const positions = recipients.map((r, i) => ({
    position: start + i,
    repeat: r.duplicate_of,
    ...(r.suppressed && { suppressed: true as const }),
  }));
  const block = {
    first: job.first_index + start,
    size: recipients.length,
    sendable: positions.filter((p) => !skippedOutcome(p)).length,
    // An A/B send's variant (decisions §33): its statuses count under it from the claim on, before the block settles.
    ...(job.variant && { variant: job.variant }),
  };
  return { block, positions };
}

/** The positions of a block still to send: sendable, and not recorded by an earlier holder. */
export const unsentOf = (mine: JobPosition[], recorded: RecordedOutcomes, start: number) =>
  mine.filter((p) => !skippedOutcome(p) && !recorded.has(p.position - start));

/** A block as claimed: the positions this invocation holds (none when another holds it or it is done). */
export interface ClaimedBlock {
  block: RecipientBlock;
  mine: JobPosition[];
  lease: ClaimLease;
  /** What earlier holders recorded of it (handed back, or a dead holder's launches unknown). */
  recorded: RecordedOutcomes;
  /** Another invocation holds it under a live lease: the job comes back for it. */
  busy: boolean;
}

/**
 * Claims the block of `job` at `start` under `lease` (decisions §12: one conditional write, so of two
 * invocations holding one job exactly one sends the block). A block settled already, or held by another, is
 * claimed with no positions.
 */
export async function claimBlockAt(
  ledger: BlockLedger,
  job: DispatchJob,
  start: number,
  lease: ClaimLease,
  nowMs: number,
): Promise<ClaimedBlock> {
  const { block, positions } = blockAt(job, start);
  const claim = await ledger.claimBlock(job.send_id, block, lease, nowMs);
  if (typeof claim === 'string') return { block, mine: [], lease, recorded: new Map(), busy: claim === 'busy' };
  return { block, mine: positions, lease, recorded: claim.claimed, busy: false };
}
