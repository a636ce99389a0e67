import { launchBlock, recordWhenAnswered, sendingBlock } from './block.ts';
import { bookTurn, followingBlock, handBackBeside, prepareBlock, sharedBookingOf } from './book.ts';
import type { DispatchJob } from '../dispatch-job.ts';
import { sendableOf } from './job.ts';
import { BLOCK, HELD_RETRY_S } from './tuning.ts';
import { completeIfDone } from '../performance/completion.ts';
import { aside, type DispatchDeps, type DispatchResult, endRun, hasTimeFor, type JobRun, pausedResult, takeJob } from './run.ts';

export type { DispatchDeps, DispatchResult } from './run.ts';

/**
 * The dispatcher (decisions §12, §19): a job's recipients become Cloud API messages, each recipient of a send
 * sent at most once. Per block of positions: claim it (one conditional write, so a job delivered twice or run
 * by two invocations sends nothing twice), reserve send slots for the number at its throughput level (paced
 * across invocations), send at those slots with bounded parallelism, retry throughput limits and upstream
 * faults with backoff and jitter, and settle the block's outcomes with the send's counts in one write.
 *
 * A job's run is named steps over one state (`JobRun`, run.ts): take the job (run.ts), book each block
 * (book.ts), launch it and record its progress, settle it (block.ts), and decide what becomes of the job (here).
 * Their parts (docs/dispatch-jobs.md, the code map): claims.ts claims a block, lanes.ts and slots.ts book the
 * number's slots, progress.ts records how far a block launched, launch.ts sends one message.
 */
export async function dispatchJob(deps: DispatchDeps, job: DispatchJob): Promise<DispatchResult> {
  const run = await takeJob(deps, job);
  const result = 'outcome' in run ? run : await sentAndNext(deps, run);
  // A job of its send ended: the last one's end writes `send.completed` (decisions §33), once.
  if (result.outcome !== 'retry_later' && deps.completion)
    await completeIfDone({ ...deps.completion, events: deps.events, log: deps.log }, job.send_id, deps.clock.now());
  return result;
}

async function sentAndNext(deps: DispatchDeps, run: JobRun) {
  await sendBlocks(deps, run);
  return nextOf(deps, run);
}

/**
 * The job's blocks in turn, until the job ends, its slice is sent, its number is crowded or the invocation's time
 * is up: each booked (the next one while this one sends), launched, and settled once its last answer is in.
 */
async function sendBlocks(deps: DispatchDeps, run: JobRun) {
  const timeUp = !hasTimeFor(deps, run, Math.min(BLOCK, sendableOf(run.job)));
  if (timeUp) endRun(run, { why: 'time up' });
  let next = timeUp || run.job.recipients.length === 0 ? undefined : aside(prepareBlock(deps, run, 0));
  while (next) {
    const prepared = await next;
    const shared = sharedBookingOf(run, prepared, deps.clock.now());
    if (shared && !(await bookTurn(deps, run, prepared, shared))) break;
    next = followingBlock(deps, run, prepared);
    if (prepared.mine.length === 0) continue;
    const block = sendingBlock(prepared);
    await launchBlock(deps, run, block);
    run.recordings.push(recordWhenAnswered(deps, run, block));
    if (block.ending !== 'settle') {
      // The slice or its turn on the number (a crowded ending says so) ended within this block, or another took
      // it over: the block claimed beside it goes back unsent.
      endRun(run, block.ending === 'hand back' ? { why: 'sliced' } : { why: 'held elsewhere' });
      await handBackBeside(deps, run, next);
      next = undefined;
    }
  }
  await Promise.all(run.recordings);
}

/** What becomes of the job once its run ends: done, or back on the queue after a while, and why. */
async function nextOf(deps: DispatchDeps, run: JobRun): Promise<DispatchResult> {
  if (run.pausedUntil !== undefined) return pausedResult(deps, run.latest, run.pausedUntil);
  const ending = run.ending;
  switch (ending?.why) {
    case undefined:
      return { outcome: 'done' };
    case 'time up':
      return { outcome: 'retry_later', reason: 'invocation time is up', afterSeconds: 0 };
    case 'crowded':
      return {
        outcome: 'retry_later',
        reason: 'the number is busy with other jobs',
        afterSeconds: Math.max(0, Math.ceil(ending.waitMs / 1000)),
      };
    case 'sliced':
      return { outcome: 'retry_later', reason: 'slice sent', afterSeconds: 0 };
    case 'held elsewhere':
      // Blocks another invocation holds are settled by it, or called lost once its lease is over.
      return { outcome: 'retry_later', reason: 'recipients held by another invocation', afterSeconds: HELD_RETRY_S };
  }
}
