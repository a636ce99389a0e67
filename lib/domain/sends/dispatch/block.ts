import { phoneNumberIdOf, type PreparedBlock, takeTurn } from './book.ts';
import { type JobPosition, skippedOutcome } from './claims.ts';
import { recipientDigits } from '../../people/person.ts';
import { chunkMessagesOf } from './lanes.ts';
import { launchOne, STOPPING } from './launch.ts';
import { PAUSED_CODE } from './pauses.ts';
import { ProgressRecords } from './progress.ts';
import { releaseOf } from './release.ts';
import { aside, type DispatchDeps, type JobRun } from './run.ts';
import { LaunchSlots } from './slots.ts';
import { CANCEL_CHECK_MS } from './tuning.ts';
import { CAPPED_BY_RULE_OUTCOME, settlePlace, takePlace } from './frequency-cap.ts';
import type { PositionOutcome } from '../ports.ts';
import { performanceMarkOf } from '../figures.ts';

/**
 * A block sent (decisions §12, §19): its recipients launched at the number's slots with bounded parallelism, its
 * progress recorded as they go (progress.ts), and the block settled with the send's counts in one write once its
 * last answer is in, or handed back with its answers when its sending ends early.
 */

/** Meta's refusal of a person who stopped marketing messages from the business (upstream-facts §8). */
const OPTED_OUT = '131050';

/** A block as this invocation sends it. */
export interface SendingBlock extends PreparedBlock {
  /** The block's outcomes by position: what earlier holders recorded, the repeats, and this one's answers. */
  outcomes: Map<number, PositionOutcome>;
  /** How the block ends here: settled whole, handed back (a slice ended within it), or taken over by another. */
  ending: 'settle' | 'hand back' | 'taken';
  /** Its launches, each until its answer is in. */
  sending: Promise<void>[];
  /** The slots it took again for being late (a stalled process; slots.ts), told with its tally. */
  lateBookings: number;
}

/** A prepared block about to send: the outcomes it has already (its earlier holders' and its repeats). */
export function sendingBlock(prepared: PreparedBlock): SendingBlock {
  const outcomes = new Map<number, PositionOutcome>();
  for (const [offset, outcome] of prepared.recorded) outcomes.set(prepared.start + offset, outcome);
  for (const p of prepared.mine) {
    const skipped = skippedOutcome(p);
    if (skipped) outcomes.set(p.position, skipped);
  }
  return { ...prepared, outcomes, ending: 'settle', sending: [], lateBookings: 0 };
}

/** The block's answers by offset, as its records hold them. */
const answered = (b: SendingBlock) => new Map([...b.outcomes].map(([position, outcome]) => [position - b.start, outcome]));

/** Launches the block's recipients; those of a send stopped, cancelled or expired are settled so, unsent. */
export async function launchBlock(deps: DispatchDeps, run: JobRun, b: SendingBlock) {
  const fill = (outcome: () => PositionOutcome) => {
    for (const p of b.toSend) b.outcomes.set(p.position, outcome());
  };
  const { stopped } = run;
  if (stopped) fill(() => ({ kind: 'failed', code: stopped.code, title: stopped.title }));
  else if (run.cancel.cancelled) fill(() => ({ kind: 'cancelled' }));
  else if (deps.clock.now() >= run.expiresAt) fill(() => ({ kind: 'expired' }));
  else await launchEach(deps, run, b);
}

/** Each recipient still to send, at its slot, until the block's sending ends (its `ending`) or the send is cancelled. */
async function launchEach(deps: DispatchDeps, run: JobRun, b: SendingBlock) {
  const { clock, settings, blocks } = deps;
  // At most two blocks with launches not yet recorded (this one and the one before, settling): so a crash
  // loses the launches since the last record of two blocks at most (sending/progress.ts), even when a slow
  // retry holds an earlier block open.
  if (run.recordings.length >= 2) await run.recordings[run.recordings.length - 2];
  const { booking } = run;
  const slots = new LaunchSlots({
    chunk: booking.shared ? chunkMessagesOf(booking, run.intervalMs) : undefined,
    intervalMs: run.intervalMs,
    booked: { first: b.first, count: b.booked },
    clock,
    // A shared send's next chunk (used, or late) at its turn too: refused, the rest of the block goes back.
    reserve: (count, spacingMs) =>
      booking.shared
        ? takeTurn(deps, run, booking, count, spacingMs)
        : deps.pacer.reserve(phoneNumberIdOf(run), count, spacingMs, clock.now()),
  });
  const progress = new ProgressRecords(b.block.size, (launchedTo) =>
    blocks.recordProgress(run.job.send_id, b.block, b.lease, { outcomes: answered(b), launchedTo }),
  );
  for (const [k, p] of b.toSend.entries()) {
    while (run.running.size >= settings.inFlight) await Promise.race(run.running);
    // The template was paused meanwhile: the rest of the block stays unsent, handed back with its answers.
    if (run.pausedUntil !== undefined) {
      b.ending = 'hand back';
      break;
    }
    // A shared send's slice may end within a block, where its booked chunk ends: the rest goes back unsent.
    if (run.booking.shared && slots.chunkUsed && k > 0 && clock.now() - run.startedAt >= settings.sliceMs) {
      b.ending = 'hand back';
      break;
    }
    const slot = await slots.next(b.toSend.length - k);
    // Not its turn: the rest of the block goes back unsent, with its answers, and the job comes back at its turn.
    if (slot === undefined) {
      b.ending = 'hand back';
      break;
    }
    // Recorded before launching past the last record (sending/progress.ts): a record refused means another
    // invocation took the block over, and nothing more of it is launched here.
    if (!(await progress.mayLaunch(p.position - b.start))) {
      b.ending = 'taken';
      break;
    }
    await untilSlot(deps, run, slot);
    // Cancelled meanwhile: this recipient and the rest of the block are never sent.
    if (run.cancel.cancelled) {
      for (const rest of b.toSend.slice(k)) b.outcomes.set(rest.position, { kind: 'cancelled' });
      break;
    }
    slots.launched();
    track(run, b, launchRecipient(deps, run, b, p));
  }
  b.lateBookings = slots.lateBookings;
}

/** Waits for the slot, the send's cancel asked during a long wait and waited for when its answer is stale. */
async function untilSlot(deps: DispatchDeps, run: JobRun, slot: number) {
  const { clock } = deps;
  let wait = slot - clock.now();
  if (wait > CANCEL_CHECK_MS / 2) {
    // A long wait (a slot booked ahead): asked during it, so the answer is recent at the launch.
    await clock.sleep(wait - CANCEL_CHECK_MS / 2);
    run.cancel.askAhead();
    wait = slot - clock.now();
  }
  if (wait > 0) await clock.sleep(wait);
  const stale = run.cancel.beforeLaunch();
  if (stale) await stale;
}

/** A launch counts against the run's messages in flight until its answer is in, and keeps its block open. */
function track(run: JobRun, b: SendingBlock, one: Promise<void>) {
  run.running.add(one);
  b.sending.push(one);
  void one.then(
    () => run.running.delete(one),
    () => run.running.delete(one),
  );
}

/** One recipient launched (launch.ts), and what its answer means for the send and the client's list. */
async function launchRecipient(deps: DispatchDeps, run: JobRun, b: SendingBlock, p: JobPosition) {
  const { clock, settings } = deps;
  // The client's frequency cap (decisions §33): a person at it is never sent; a place not used is given back.
  const place = await takePlace(deps, run.job, p.position, clock.now());
  if (place === 'capped') return void b.outcomes.set(p.position, CAPPED_BY_RULE_OUTCOME);
  const outcome = await launchOne(deps, run.job, p.position, {
    expiresAt: run.expiresAt,
    catalogId: run.catalogId,
    intervalMs: run.intervalMs,
    isStopped: () => run.stopped,
    isCancelled: () => run.cancel.cancelled,
    isPaused: () => run.pausedUntil !== undefined,
  });
  if (place !== undefined) await settlePlace(deps, run.job, p.position, place, outcome);
  // Paused (decisions §25): this recipient was not sent and stays pending; the send waits for the template.
  if (outcome.kind === 'failed' && outcome.code === PAUSED_CODE && deps.pauses) {
    const pause = await deps.pauses.pause(run.job.waba_id, run.job.template.id, clock.now());
    run.pausedUntil ??= pause.until_ms ?? clock.now() + settings.pausedRecheckMs;
    return;
  }
  if (outcome.kind === 'failed' && STOPPING.has(outcome.code) && !run.stopped) {
    run.stopped = { code: outcome.code, title: outcome.title };
    await deps.sends.stop(run.job.send_id, run.stopped);
    deps.log.warn('send stopped: the template may no longer be sent', { code: outcome.code });
  }
  // The person stopped marketing from this business (131050): on the client's list from now on (decisions §25).
  const to = run.job.recipients[p.position].to;
  if (outcome.kind === 'failed' && outcome.code === OPTED_OUT && deps.suppressions && to !== undefined) {
    const at = new Date(clock.now()).toISOString();
    await deps.suppressions.add(run.job.client_id, { phone: recipientDigits(to), source: '131050', at });
  }
  b.outcomes.set(p.position, outcome);
}

/** Settled (or handed back) once the block's last answer is in, while the next block already sends. */
export const recordWhenAnswered = (deps: DispatchDeps, run: JobRun, b: SendingBlock) =>
  aside(Promise.all(b.sending).then(() => settle(deps, run, b)));

/** The block settled whole with the send's counts, or handed back with its answers; the run's tally told. */
async function settle(deps: DispatchDeps, run: JobRun, b: SendingBlock) {
  const { blocks } = deps;
  const { job } = run;
  if (b.ending === 'taken') return;
  // A position without an outcome (a recipient not sent while the template was paused) keeps the block open.
  const complete = b.mine.every((p) => b.outcomes.has(p.position));
  if (b.ending === 'hand back' || !complete) await blocks.handBack(job.send_id, b.block, b.lease, answered(b));
  else {
    const settled = b.mine.map((p) => ({ position: p.position, outcome: b.outcomes.get(p.position) as PositionOutcome }));
    const outcomes = settled.map((p) => p.outcome);
    await blocks.settleBlock(job.send_id, b.block, outcomes, b.lease, releaseOf(job, settled), performanceMarkOf(job, deps.clock.now()));
  }
  // This invocation's own answers (earlier holders' were told by them).
  const own = b.toSend.flatMap((p) => b.outcomes.get(p.position) ?? []);
  const sent = own.filter((o) => o.kind === 'sent').length;
  const failed = own.filter((o) => o.kind === 'failed' || o.kind === 'expired').length;
  const { lateBookings } = b;
  deps.log.info(b.ending === 'hand back' ? 'dispatched part of a block' : 'dispatched block', {
    recipients: own.length,
    sent,
    late_bookings: lateBookings,
  });
  deps.onSettled?.({ sent, failed, lateBookings });
}
