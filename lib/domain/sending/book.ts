import { BLOCK, type ClaimedBlock, claimBlockAt, type JobPosition, unsentOf } from './claims.ts';
import { chunkOf, NEAR_MS } from './lanes.ts';
import { aside, crowdedWait, type DispatchDeps, endRun, hasTimeFor, type JobRun, lookAgain, mayLaunch } from './run.ts';
import type { ClaimLease } from '../ports/sending.ts';

/**
 * Booking a block (decisions §12, §19, §23): claimed, the send looked at again, and the number's slots reserved
 * for it, whole for a priority job, a chunk at a time for a campaign (lanes.ts). The next block is booked while
 * this one sends, so the number's slots follow each other.
 */

/** How far ahead a number may be booked before a job leaves it to the others (see `followingBlock`). */
const MAX_BACKLOG_MS = 5_000;

/** A block ready to send: its claim, where it starts in the job, what of it is still to send, and its slots. */
export interface PreparedBlock extends ClaimedBlock {
  /** Its first position in the job. */
  start: number;
  /** Its positions still to send: sendable, and not recorded by an earlier holder. */
  toSend: JobPosition[];
  /** The first booked slot, and how many are booked from it (a campaign's block books as it goes). */
  first: number;
  booked: number;
}

/**
 * The block at `start` made ready to send: claimed, the send's stop looked up, the number's pace read and, for a
 * priority job, its slots reserved. A bulk block books its chunks as it sends (`bookChunk`, slots.ts).
 */
export async function prepareBlock(deps: DispatchDeps, run: JobRun, start: number): Promise<PreparedBlock> {
  const { clock, settings } = deps;
  const lease: ClaimLease = { holder: deps.holder, untilMs: clock.now() + deps.remainingMs() + settings.leaseMarginMs };
  const claimed = await claimBlockAt(deps.sends, run.job, start, lease, clock.now());
  if (claimed.busy) endRun(run, { why: 'held elsewhere' });
  const toSend = unsentOf(claimed.mine, claimed.recorded, start);
  const unbooked = { ...claimed, start, toSend, first: 0, booked: 0 };
  if (toSend.length === 0) return unbooked;
  if (start > 0) await lookAgain(deps, run);
  if (run.lane === 'bulk' || !mayLaunch(run, clock.now())) return unbooked;
  const first = await deps.pacer.reserve(phoneNumberIdOf(run), toSend.length, run.intervalMs, clock.now());
  return { ...unbooked, first, booked: toSend.length };
}

/**
 * A campaign's block starts only when its number is free within NEAR_MS: booked further ahead (priority sends go
 * on it), the block is given back unsent and the job comes back when the number is free (false then). Its first
 * chunk is booked into the block.
 */
export async function bookChunk(deps: DispatchDeps, run: JobRun, block: PreparedBlock): Promise<boolean> {
  const { clock, pacer } = deps;
  const chunk = Math.min(block.toSend.length, chunkOf(run.intervalMs));
  const near = await pacer.reserveNear(phoneNumberIdOf(run), chunk, run.intervalMs, clock.now(), NEAR_MS);
  if ('freeAt' in near) {
    await deps.sends.handBack(run.job.send_id, block.block, block.lease, block.recorded);
    endRun(run, { why: 'crowded', waitMs: crowdedWait(run, near.freeAt - NEAR_MS - clock.now()) });
    return false;
  }
  block.first = near.first;
  block.booked = chunk;
  return true;
}

/** Whether a block is a campaign's to book by chunks now: it has recipients to send and the run may launch. */
export const booksByChunks = (run: JobRun, block: PreparedBlock, now: number) =>
  run.lane === 'bulk' && block.toSend.length > 0 && mayLaunch(run, now);

/**
 * The block after `block`, claimed and booked while `block` sends; or none, and why the run ends after `block`.
 * A number booked further ahead than MAX_BACKLOG_MS (other jobs send on it) is left to them after this block:
 * the invocation is freed for other numbers and the job comes back when the number has room. A job that sent
 * its slice hands the rest back too, so invocations cycle in seconds (decisions §23).
 */
export function followingBlock(deps: DispatchDeps, run: JobRun, block: PreparedBlock): Promise<PreparedBlock> | undefined {
  const { clock, settings } = deps;
  const start = block.start + BLOCK;
  const total = run.job.recipients.length;
  if (start >= total) return undefined;
  const sending = block.toSend.length;
  const backlog = block.first - clock.now();
  const sliceSent = clock.now() + sending * run.intervalMs - run.startedAt >= settings.sliceMs;
  if (sending > 0 && backlog > MAX_BACKLOG_MS) endRun(run, { why: 'crowded', waitMs: crowdedWait(run, backlog) });
  else if (sending > 0 && mayLaunch(run, clock.now()) && sliceSent) endRun(run, { why: 'sliced' });
  else if (hasTimeFor(deps, run, sending + Math.min(BLOCK, total - start))) return aside(prepareBlock(deps, run, start));
  else endRun(run, { why: 'time up' });
  return undefined;
}

/** The block claimed beside one whose sending ended early goes back unsent. */
export async function handBackBeside(deps: DispatchDeps, run: JobRun, beside: Promise<PreparedBlock> | undefined) {
  const block = await beside;
  if (block?.mine.length) await deps.sends.handBack(run.job.send_id, block.block, block.lease, block.recorded);
}

/** The number a run books: a job without one never books (it is stopped when taken). */
export function phoneNumberIdOf(run: JobRun): string {
  if (!run.number) throw new Error('a job without a sending number books no slots');
  return run.number.phoneNumberId;
}
