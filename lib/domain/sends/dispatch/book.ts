import { type ClaimedBlock, claimBlockAt, type JobPosition, unsentOf } from './claims.ts';
import { askAgainAt, chunkMessagesOf, horizonAtPace, type SharedBooking, turnOf } from './lanes.ts';
import { BLOCK, MAX_BACKLOG_MS, TURN_WAIT_MS } from './tuning.ts';
import { aside, crowdedWait, type DispatchDeps, endRun, hasTimeFor, type JobRun, lookAgain, mayLaunch } from './run.ts';
import type { ClaimLease } from '../ports.ts';

/**
 * Booking a block (decisions §12, §19, §23; issue 44): claimed, the send looked at again, and the number's slots
 * reserved for it, whole for a send of a few, a chunk at a time at its turn for a send that shares the number
 * (lanes.ts). The next block of a send of a few is booked while this one sends, so its slots follow each other.
 */

/** A block ready to send: its claim, where it starts in the job, what of it is still to send, and its slots. */
export interface PreparedBlock extends ClaimedBlock {
  /** Its first position in the job. */
  start: number;
  /** Its positions still to send: sendable, and not recorded by an earlier holder. */
  toSend: JobPosition[];
  /** The first booked slot, and how many are booked from it (a shared send's block books as it goes). */
  first: number;
  booked: number;
}

/**
 * The block at `start` made ready to send: claimed, the send's stop looked up, the number's pace read and, for a
 * send of a few, its slots reserved. A shared send's block books its chunks as it sends (`bookTurn`, slots.ts).
 */
export async function prepareBlock(deps: DispatchDeps, run: JobRun, start: number): Promise<PreparedBlock> {
  const { clock, settings } = deps;
  const lease: ClaimLease = { holder: deps.holder, untilMs: clock.now() + deps.remainingMs() + settings.leaseMarginMs };
  const claimed = await claimBlockAt(deps.blocks, run.job, start, lease, clock.now());
  if (claimed.busy) endRun(run, { why: 'held elsewhere' });
  const toSend = unsentOf(claimed.mine, claimed.recorded, start);
  const unbooked = { ...claimed, start, toSend, first: 0, booked: 0 };
  if (toSend.length === 0) return unbooked;
  if (start > 0) await lookAgain(deps, run);
  if (run.booking.shared || !mayLaunch(run, clock.now())) return unbooked;
  const first = await deps.pacer.reserve(phoneNumberIdOf(run), toSend.length, run.intervalMs, clock.now());
  return { ...unbooked, first, booked: toSend.length };
}

/**
 * A shared send's chunk of `count` slots `spacingMs` apart, booked only at its turn (lanes.ts): the number free
 * within its horizon, and no better rank holding it. A turn that comes within TURN_WAIT_MS (another send of its
 * rank uses its chunk) is waited for here, within the slice, so the turns go round the ready sends; a later one
 * (several sends ahead, a better rank's hold, its own send's earlier jobs) ends the run crowded until then, and
 * nothing is booked (undefined). The longer it has waited, the earlier in its horizon it asks (lanes.ts turnLagMs).
 */
export async function takeTurn(deps: DispatchDeps, run: JobRun, booking: SharedBooking, count: number, spacingMs: number) {
  const { clock, pacer } = deps;
  const horizonMs = horizonAtPace(booking, run.intervalMs);
  const ask = () => pacer.reserveNear(phoneNumberIdOf(run), count, spacingMs, clock.now(), horizonMs, turnOf(booking));
  const waitingSince = clock.now();
  let near = await ask();
  // Waited for here, a turn is asked for later in the horizon the shorter the wait so far; handed back, at its start.
  const waitMs = (waitedMs?: number) => ('freeAt' in near ? crowdedWait(run, askAgainAt(near, horizonMs, waitedMs) - clock.now()) : 0);
  while ('freeAt' in near && waitMs() <= TURN_WAIT_MS && clock.now() - run.startedAt < deps.settings.sliceMs) {
    await clock.sleep(Math.max(1, waitMs(clock.now() - waitingSince)));
    near = await ask();
  }
  if ('first' in near) return near.first;
  endRun(run, { why: 'crowded', waitMs: waitMs() });
  return undefined;
}

/**
 * A shared send's block starts only at its turn (`takeTurn`): its first chunk is booked into the block, or the
 * block is given back unsent and the job comes back at its turn (false).
 */
export async function bookTurn(deps: DispatchDeps, run: JobRun, block: PreparedBlock, booking: SharedBooking): Promise<boolean> {
  const chunk = Math.min(block.toSend.length, chunkMessagesOf(booking, run.intervalMs)(run.intervalMs));
  const first = await takeTurn(deps, run, booking, chunk, run.intervalMs);
  if (first === undefined) {
    await deps.blocks.handBack(run.job.send_id, block.block, block.lease, block.recorded);
    return false;
  }
  block.first = first;
  block.booked = chunk;
  return true;
}

/** The run's booking when its block is to be booked at its turn now: it shares the number, has recipients to send and may launch. */
export const sharedBookingOf = (run: JobRun, block: PreparedBlock, now: number) =>
  run.booking.shared && block.toSend.length > 0 && mayLaunch(run, now) ? run.booking : undefined;

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
  if (block?.mine.length) await deps.blocks.handBack(run.job.send_id, block.block, block.lease, block.recorded);
}

/** The number a run books: a job without one never books (it is stopped when taken). */
export function phoneNumberIdOf(run: JobRun): string {
  if (!run.number) throw new Error('a job without a sending number books no slots');
  return run.number.phoneNumberId;
}
