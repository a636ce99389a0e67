import { releaseOf, wholeJobRelease } from './release.ts';
import { CANCEL_CHECK_MS, cancelWatch } from './cancel-watch.ts';
import { BLOCK, type ClaimedBlock, claimBlockAt, skippedOutcome, unsentOf } from './claims.ts';
import { needsCatalog } from '../cloud-message.ts';
import type { DispatchJob } from '../dispatch-job.ts';
import { recipientDigits, sendableOf } from './job.ts';
import { chunkOf, crowdedWaitMs, laneOf, NEAR_MS } from './lanes.ts';
import { launchOne, STOPPING } from './launch.ts';
import type { Log } from '../log.ts';
import { ProgressRecords } from './progress.ts';
import type { Clock, DispatchSettings } from './settings.ts';
import { LaunchSlots } from './slots.ts';
import { paceOf, throughputLevel } from './throughput.ts';
import type { BlockLedger, ClaimLease, PositionOutcome, RecipientOutcome, SendRecord, SendRecords } from '../ports/sending.ts';
import type { MessageUpstream } from '../ports/upstream.ts';
import type { Pacer, ThroughputStore } from '../ports/pacing.ts';
import type { SuppressionStore, TemplatePauses } from '../ports/consent.ts';
import { sendEvent } from '../events.ts';
import { type OutboxDeps, publishSaved } from '../outbox.ts';
import { sendStatusOf } from '../send-status.ts';
import { DISABLED_CODE, PAUSED_CODE } from './pauses.ts';

/**
 * The dispatcher (decisions §12, §19): a job's recipients become Cloud API messages, each recipient of a send
 * sent at most once. Per block of positions: claim it (one conditional write, so a job delivered twice or run
 * by two invocations sends nothing twice), reserve send slots for the number at its throughput level (paced
 * across invocations), send at those slots with bounded parallelism, retry throughput limits and upstream
 * faults with backoff and jitter, and settle the block's outcomes with the send's counts in one write.
 *
 * Its parts (docs/dispatch-jobs.md, the code map): claims.ts claims a block, lanes.ts and slots.ts book the
 * number's slots, progress.ts records how far a block launched, launch.ts sends one message; this file is the
 * slice loop that runs them.
 */
export interface DispatchDeps {
  sends: SendRecords;
  blocks: BlockLedger;
  pacer: Pacer;
  levels: ThroughputStore;
  upstream: MessageUpstream;
  log: Log;
  clock: Clock;
  settings: DispatchSettings;
  /** This invocation: it holds the claims it makes until its time is up. */
  holder: string;
  remainingMs: () => number;
  random?: () => number;
  /** Where a recipient who stopped marketing (131050) is put (decisions §25). */
  suppressions?: SuppressionStore;
  /**
   * Templates Meta paused or disabled (decisions §25), and where the send's `send.paused` / `send.resumed` events
   * go. Without them a 132015 stops the send as 132016 does.
   */
  pauses?: TemplatePauses;
  events?: Omit<OutboxDeps, 'log'>;
  /** Told each settled block's tally (the worker counts messages dispatched and failed as metrics). */
  onSettled?: (tally: { sent: number; failed: number }) => void;
}

/** How far ahead a number may be booked before a job leaves it to the others (see the loop). */
const MAX_BACKLOG_MS = 5_000;
const THIRTY_DAYS_S = 30 * 86_400;

/**
 * When the send stops being sendable: `message_send_ttl_seconds` (-1 is 30 days) after acceptance, or after its
 * time for a scheduled send (decisions §22).
 */
function expiryOf(send: SendRecord, job: DispatchJob): number {
  const ttl = job.message_send_ttl_seconds;
  if (ttl === undefined || ttl === 0) return Number.POSITIVE_INFINITY;
  return Date.parse(send.send_at ?? send.created_at) + (ttl === -1 ? THIRTY_DAYS_S : ttl) * 1000;
}

/** A job not finished comes back after `afterSeconds` (the queue's redelivery), having kept what it settled. */
export type DispatchResult =
  | { outcome: 'done' }
  | { outcome: 'retry_later'; reason: string; afterSeconds: number }
  | { outcome: 'dropped'; reason: string };

/** Meta's refusal of a person who stopped marketing messages from the business (upstream-facts §8). */
const OPTED_OUT = '131050';

/** A disabled template's refusal: the rest of its send fails with it (decisions §25). */
const DISABLED = { code: DISABLED_CODE, title: 'The template is disabled' };

/**
 * What the template's pause says of a job now (decisions §25): `disabled`, the time its pause ends, or nothing
 * (it may send). A pause whose time is over is ended here; a send marked paused whose template is not is resumed.
 */
async function pauseOf(deps: DispatchDeps, job: DispatchJob, send: SendRecord): Promise<number | 'disabled' | undefined> {
  if (!deps.pauses) return undefined;
  const now = deps.clock.now();
  const pause = await deps.pauses.get(job.waba_id, job.template.id);
  if (pause?.state === 'disabled') return 'disabled';
  if (pause?.state === 'paused' && (pause.until_ms ?? 0) > now) return pause.until_ms;
  if (pause?.state === 'paused') await deps.pauses.resume(job.waba_id, job.template.id);
  if (send.paused) {
    const event = sendEvent(
      'send.resumed',
      send.client_id,
      sendStatusOf({ ...send, paused: undefined }),
      new Date(now).toISOString(),
      send.send_id,
    );
    if ((await deps.sends.resume(send.send_id, event)) && deps.events) await publishSaved({ ...deps.events, log: deps.log }, [event]);
    deps.log.info('send resumed: its template may be sent again', { send_id: send.send_id });
  }
  return undefined;
}

/**
 * A job of a paused send comes back when it may look again (at most its pause's end); the send is marked paused
 * the first time, with its `send.paused` event (written with the mark, then published).
 */
async function pausedFor(deps: DispatchDeps, send: SendRecord, untilMs: number): Promise<DispatchResult> {
  const now = deps.clock.now();
  const until = new Date(untilMs).toISOString();
  const paused = { since: new Date(now).toISOString(), until };
  const event = sendEvent('send.paused', send.client_id, sendStatusOf({ ...send, paused }), paused.since, send.send_id);
  if ((await deps.sends.pause(send.send_id, until, event)) && deps.events) {
    await publishSaved({ ...deps.events, log: deps.log }, [event]);
    deps.log.warn('send paused: its template is paused', { until });
  }
  const waitMs = Math.min(Math.max(untilMs - now, 1_000), deps.settings.pausedRecheckMs);
  return { outcome: 'retry_later', reason: 'template paused', afterSeconds: Math.ceil(waitMs / 1000) };
}

/** A send's first job usually arrives while the send is settled `queued`, milliseconds later: wait that out. */
async function queuedSend(deps: DispatchDeps, sendId: string) {
  let send = await deps.sends.get(sendId);
  for (let look = 0; look < 5 && send?.status === 'queuing'; look++) {
    await deps.clock.sleep(200);
    send = await deps.sends.get(sendId);
  }
  return send;
}

export async function dispatchJob(deps: DispatchDeps, job: DispatchJob): Promise<DispatchResult> {
  const { sends, blocks, clock, settings, log } = deps;
  const send = await queuedSend(deps, job.send_id);
  // A send whose jobs are not all on the queue is never dispatched (decisions §12): `queuing` may still become
  // `queued`, so its job comes back later; an abandoned or unknown send's job is dropped.
  if (!send || send.status === 'abandoned') return { outcome: 'dropped', reason: send ? 'send abandoned' : 'unknown send' };
  if (send.status === 'queuing') return { outcome: 'retry_later', reason: 'send still queuing', afterSeconds: 10 };

  const expiresAt = expiryOf(send, job);
  const catalogId = needsCatalog(job) ? await deps.upstream.catalogOf(job.waba_id) : undefined;
  const number = job.phone_number_id ? { digits: recipientDigits(job.did), phoneNumberId: job.phone_number_id } : undefined;
  // A DID with no number at the upstream cannot send: its recipients fail, as a paused template's do.
  let stopped = send.stopped ?? (number ? undefined : { code: 'no_phone_number', title: 'The DID has no phone number id' });
  let unfinished = false;
  const sendable = sendableOf(job);

  // A job that can send nothing (the send expired or stopped before it began) is settled whole, in one write;
  // otherwise it is marked begun first, so it is never also settled whole by a later delivery.
  const cancel = cancelWatch(() => sends.isCancelled(job.send_id), clock, send.cancelled_at !== undefined);
  // The template as Meta left it (decisions §25): disabled, the rest fails; paused, nothing is sent until it is not.
  if (!cancel.cancelled && !stopped) {
    const pause = await pauseOf(deps, job, send);
    if (pause === 'disabled') stopped = DISABLED;
    else if (pause !== undefined) return pausedFor(deps, send, pause);
  }
  const whole: RecipientOutcome | undefined = stopped
    ? { kind: 'failed', code: stopped.code, title: stopped.title }
    : cancel.cancelled
      ? { kind: 'cancelled' }
      : clock.now() >= expiresAt
        ? { kind: 'expired' }
        : undefined;
  if (whole && (await blocks.settleJob(job.send_id, job.job, sendable, whole, wholeJobRelease(job, whole)))) return { outcome: 'done' };
  if ((await blocks.beginJob(job.send_id, job.job)) === 'settled') return { outcome: 'done' };

  const lane = laneOf(job);
  const startedAt = clock.now();
  /** The number's pace now: its level as last learned (asked again hourly or when Meta says it changed). */
  const intervalOf = async () =>
    1000 / paceOf(number ? await throughputLevel(deps, number, clock.now()) : 'STANDARD', settings.messagesPerSecondCap);
  let intervalMs = await intervalOf();
  const hasTimeFor = (messages: number) => deps.remainingMs() >= settings.safetyMs + messages * intervalMs;
  /** When the template's pause ends, once a refusal (132015) or its pause item says it is paused. */
  let pausedUntil: number | undefined;
  const mayLaunch = () => !stopped && pausedUntil === undefined && !cancel.cancelled && clock.now() < expiresAt;
  /** The send as last read: how much of it is settled tells how long a job crowded off its number waits. */
  let latest = send;
  /** How long a job crowded off its number waits (lanes.ts): its own send's recipients ahead of it count. */
  const crowdedWait = (freeInMs: number) => {
    const c = latest.counts;
    const settled = c ? c.sent + c.failed + (c.capped ?? 0) + c.expired + c.cancelled + c.duplicates_removed + (c.suppressed ?? 0) : 0;
    return crowdedWaitMs(freeInMs, job.first_index - settled, intervalMs);
  };
  /**
   * A block made ready to send: claimed, the send's stop looked up, the number's pace read and, for a priority
   * job, its slots reserved. Done for the next block while this one sends, so the number's slots follow each
   * other. A bulk block books its chunks as it sends (see the loop).
   */
  const prepareBlock = async (start: number): Promise<PreparedBlock> => {
    const lease: ClaimLease = { holder: deps.holder, untilMs: clock.now() + deps.remainingMs() + settings.leaseMarginMs };
    const claimed = await claimBlockAt(blocks, job, start, lease, clock.now());
    if (claimed.busy) unfinished = true;
    const { mine, recorded } = claimed;
    const toSend = unsentOf(mine, recorded, start).length;
    const unbooked = { ...claimed, first: 0, booked: 0 };
    if (toSend === 0) return unbooked;
    if (start > 0) {
      const now = await sends.get(job.send_id);
      latest = now ?? latest;
      stopped ??= now?.stopped;
      cancel.learn(now?.cancelled_at !== undefined);
      intervalMs = await intervalOf();
      // Meta's pause of the template, as its status event left it: the block stays unsent.
      const pause = now && !stopped ? await pauseOf(deps, job, now) : undefined;
      if (pause === 'disabled') stopped = DISABLED;
      else if (pause !== undefined) pausedUntil ??= pause;
    }
    if (lane === 'bulk' || !mayLaunch()) return unbooked;
    return { ...unbooked, first: await deps.pacer.reserve(number!.phoneNumberId, toSend, intervalMs, clock.now()), booked: toSend };
  };
  // Promises that run beside the loop get a handler at once (an early throw must not leave one unhandled);
  // the loop still awaits each, so their errors are not lost.
  const aside = <T>(promise: Promise<T>) => {
    promise.catch(() => undefined);
    return promise;
  };
  const running = new Set<Promise<void>>();
  const recordings: Promise<void>[] = [];
  let timeUp = !hasTimeFor(Math.min(BLOCK, sendable));
  /** Why the job stops before its end, when it does: its number booked ahead by others, or its slice sent. */
  let crowdedFor: number | undefined;
  let sliced = false;
  let next = timeUp || job.recipients.length === 0 ? undefined : aside(prepareBlock(0));

  for (let start = 0; next; start += BLOCK) {
    const { block, mine, lease, recorded, ...booking } = await next;
    let { first, booked } = booking;
    next = undefined;
    const following = start + BLOCK;
    const toSend = unsentOf(mine, recorded, start);
    if (lane === 'bulk' && toSend.length > 0 && mayLaunch()) {
      // A campaign's block starts only when its number is free within NEAR_MS: booked further ahead (priority
      // sends go on it), the block is given back unsent and the job comes back when the number is free.
      const chunk = Math.min(toSend.length, chunkOf(intervalMs));
      const near = await deps.pacer.reserveNear(number!.phoneNumberId, chunk, intervalMs, clock.now(), NEAR_MS);
      if ('freeAt' in near) {
        await blocks.handBack(job.send_id, block, lease, recorded);
        crowdedFor = crowdedWait(near.freeAt - NEAR_MS - clock.now());
        break;
      }
      first = near.first;
      booked = chunk;
    }
    // A number booked further ahead than MAX_BACKLOG_MS (other jobs send on it) is left to them after this
    // block: the invocation is freed for other numbers and the job comes back when the number has room. A job
    // that sent its slice hands the rest back too, so invocations cycle in seconds (decisions §23).
    const backlog = first - clock.now();
    if (following < job.recipients.length) {
      if (toSend.length > 0 && backlog > MAX_BACKLOG_MS) crowdedFor = crowdedWait(backlog);
      else if (toSend.length > 0 && mayLaunch() && clock.now() + toSend.length * intervalMs - startedAt >= settings.sliceMs) sliced = true;
      else if (hasTimeFor(toSend.length + Math.min(BLOCK, job.recipients.length - following))) next = aside(prepareBlock(following));
      else timeUp = true;
    }
    if (mine.length === 0) continue;

    /** The block's outcomes by position: what earlier holders recorded, the repeats, and this one's answers. */
    const outcomes = new Map<number, PositionOutcome>();
    for (const [offset, outcome] of recorded) outcomes.set(start + offset, outcome);
    for (const p of mine) {
      const skipped = skippedOutcome(p);
      if (skipped) outcomes.set(p.position, skipped);
    }
    const answered = () => new Map([...outcomes].map(([position, outcome]) => [position - start, outcome]));
    /** How the block ends here: settled whole, handed back (a slice ended within it), or taken over by another. */
    let ending: 'settle' | 'hand back' | 'taken' = 'settle';
    const sending: Promise<void>[] = [];
    if (stopped) for (const p of toSend) outcomes.set(p.position, { kind: 'failed', code: stopped.code, title: stopped.title });
    else if (cancel.cancelled) for (const p of toSend) outcomes.set(p.position, { kind: 'cancelled' });
    else if (clock.now() >= expiresAt) for (const p of toSend) outcomes.set(p.position, { kind: 'expired' });
    else {
      // At most two blocks with launches not yet recorded (this one and the one before, settling): so a crash
      // loses the launches since the last record of two blocks at most (sending/progress.ts), even when a slow
      // retry holds an earlier block open.
      if (recordings.length >= 2) await recordings[recordings.length - 2];
      const slots = new LaunchSlots({
        lane,
        intervalMs,
        booked: { first, count: booked },
        clock,
        reserve: (count, spacingMs) => deps.pacer.reserve(number!.phoneNumberId, count, spacingMs, clock.now()),
      });
      const progress = new ProgressRecords(block.size, (launchedTo) =>
        blocks.recordProgress(job.send_id, block, lease, { outcomes: answered(), launchedTo }),
      );
      for (const [k, p] of toSend.entries()) {
        while (running.size >= settings.inFlight) await Promise.race(running);
        // The template was paused meanwhile: the rest of the block stays unsent, handed back with its answers.
        if (pausedUntil !== undefined) {
          ending = 'hand back';
          break;
        }
        // A campaign's slice may end within a block, where its booked chunk ends: the rest goes back unsent.
        if (lane === 'bulk' && slots.chunkUsed && k > 0 && clock.now() - startedAt >= settings.sliceMs) {
          ending = 'hand back';
          break;
        }
        const slot = await slots.next(toSend.length - k);
        // Recorded before launching past the last record (sending/progress.ts): a record refused means another
        // invocation took the block over, and nothing more of it is launched here.
        if (!(await progress.mayLaunch(p.position - start))) {
          ending = 'taken';
          break;
        }
        let wait = slot - clock.now();
        if (wait > CANCEL_CHECK_MS / 2) {
          // A long wait (a slot booked ahead): asked during it, so the answer is recent at the launch.
          await clock.sleep(wait - CANCEL_CHECK_MS / 2);
          cancel.askAhead();
          wait = slot - clock.now();
        }
        if (wait > 0) await clock.sleep(wait);
        // Cancelled meanwhile: this recipient and the rest of the block are never sent.
        const stale = cancel.beforeLaunch();
        if (stale) await stale;
        if (cancel.cancelled) {
          for (const rest of toSend.slice(k)) outcomes.set(rest.position, { kind: 'cancelled' });
          break;
        }
        slots.launched();
        const one = (async () => {
          const outcome = await launchOne(deps, job, p.position, {
            expiresAt,
            catalogId,
            intervalMs,
            isStopped: () => stopped,
            isCancelled: () => cancel.cancelled,
            isPaused: () => pausedUntil !== undefined,
          });
          // Paused (decisions §25): this recipient was not sent and stays pending; the send waits for the template.
          if (outcome.kind === 'failed' && outcome.code === PAUSED_CODE && deps.pauses) {
            const pause = await deps.pauses.pause(job.waba_id, job.template.id, clock.now());
            pausedUntil ??= pause.until_ms ?? clock.now() + settings.pausedRecheckMs;
            return;
          }
          if (outcome.kind === 'failed' && STOPPING.has(outcome.code) && !stopped) {
            stopped = { code: outcome.code, title: outcome.title };
            await sends.stop(job.send_id, stopped);
            log.warn('send stopped: the template may no longer be sent', { code: outcome.code });
          }
          // The person stopped marketing from this business (131050): on the client's list from now on (decisions §25).
          const to = job.recipients[p.position].to;
          if (outcome.kind === 'failed' && outcome.code === OPTED_OUT && deps.suppressions && to !== undefined) {
            const phone = recipientDigits(to);
            await deps.suppressions.add(job.client_id, { phone, source: '131050', at: new Date(clock.now()).toISOString() });
          }
          outcomes.set(p.position, outcome);
        })();
        running.add(one);
        sending.push(one);
        void one.then(
          () => running.delete(one),
          () => running.delete(one),
        );
      }
    }
    // Settled (or handed back) once the block's last answer is in, while the next block already sends.
    recordings.push(
      aside(
        Promise.all(sending).then(async () => {
          if (ending === 'taken') return;
          // A position without an outcome (a recipient not sent while the template was paused) keeps the block open.
          const complete = mine.every((p) => outcomes.has(p.position));
          if (ending === 'hand back' || !complete) await blocks.handBack(job.send_id, block, lease, answered());
          else {
            const settled = mine.map((p) => ({ position: p.position, outcome: outcomes.get(p.position) as PositionOutcome }));
            await blocks.settleBlock(
              job.send_id,
              block,
              settled.map((p) => p.outcome),
              lease,
              releaseOf(job, settled),
            );
          }
          // This invocation's own answers (earlier holders' were told by them).
          const own = toSend.flatMap((p) => outcomes.get(p.position) ?? []);
          const sent = own.filter((o) => o.kind === 'sent').length;
          const failed = own.filter((o) => o.kind === 'failed' || o.kind === 'expired').length;
          log.info(ending === 'hand back' ? 'dispatched part of a block' : 'dispatched block', { recipients: own.length, sent });
          deps.onSettled?.({ sent, failed });
        }),
      ),
    );
    if (ending !== 'settle') {
      // The slice ended within this block, or another took it over: the block claimed beside it goes back unsent.
      if (ending === 'hand back') sliced = true;
      else unfinished = true;
      const beside = await next;
      if (beside?.mine.length) await blocks.handBack(job.send_id, beside.block, beside.lease, beside.recorded);
      next = undefined;
    }
  }
  await Promise.all(recordings);
  if (pausedUntil !== undefined) return pausedFor(deps, latest, pausedUntil);
  if (timeUp) return { outcome: 'retry_later', reason: 'invocation time is up', afterSeconds: 0 };
  if (crowdedFor !== undefined)
    return {
      outcome: 'retry_later',
      reason: 'the number is busy with other jobs',
      afterSeconds: Math.max(0, Math.ceil(crowdedFor / 1000)),
    };
  if (sliced) return { outcome: 'retry_later', reason: 'slice sent', afterSeconds: 0 };
  // Blocks another invocation holds are settled by it, or called lost once its lease is over.
  return unfinished ? { outcome: 'retry_later', reason: 'recipients held by another invocation', afterSeconds: 30 } : { outcome: 'done' };
}

/** A block ready to send: its claim, and the slots booked for it (a bulk block books as it goes). */
interface PreparedBlock extends ClaimedBlock {
  /** The first booked slot, and how many are booked from it. */
  first: number;
  booked: number;
}
