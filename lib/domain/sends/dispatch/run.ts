import type { CompletionDeps } from '../performance/completion.ts';
import { type CancelWatch, cancelWatch } from './cancel-watch.ts';
import { needsCatalog } from '../cloud-message.ts';
import type { DispatchJob } from '../dispatch-job.ts';
import { sendableOf } from './job.ts';
import { recipientDigits } from '../../people/person.ts';
import { type Booking, bookingOf, crowdedWaitMs } from './lanes.ts';
import type { Log } from '../../shared/log.ts';
import { DISABLED, markPaused, pauseOf } from './paused-send.ts';
import { PAUSED_REASON } from './pauses.ts';
import { wholeJobRelease } from './release.ts';
import type { Clock, DispatchSettings } from './settings.ts';
import { paceOf, throughputLevel } from './throughput.ts';
import { LONGEST_TTL_S, QUEUING_LOOK_MS, QUEUING_LOOKS, QUEUING_RETRY_S } from './tuning.ts';
import type { BlockLedger, RecipientOutcome, SendRecord, SendRecords } from '../ports.ts';
import type { MessageUpstream } from './ports.ts';
import type { Pacer, ThroughputStore } from './ports.ts';
import type { SuppressionStore } from '../../people/ports.ts';
import type { MarketingCounts } from '../../people/frequency-caps.ts';
import type { TemplatePauses } from '../../templates/ports.ts';
import type { OutboxDeps } from '../../webhooks/outbox.ts';

/** What the dispatcher needs: the composition root (the dispatch worker) hands them in, tests in-memory ones. */
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
  /** Each person's MARKETING count under its client's frequency cap (decisions §33): a capped send's messages take places. */
  marketingCounts?: Pick<MarketingCounts, 'take' | 'giveBack'>;
  /**
   * Templates Meta paused or disabled (decisions §25), and where the send's `send.paused` / `send.resumed` events
   * go. Without them a 132015 stops the send as 132016 does.
   */
  pauses?: TemplatePauses;
  events?: Omit<OutboxDeps, 'log'>;
  /**
   * Told each settled block's tally (the worker counts them as metrics): messages dispatched and failed, and the
   * slots it took again for being late (each a write of the number's pacing item that its pace did not ask for).
   */
  onSettled?: (tally: { sent: number; failed: number; lateBookings: number }) => void;
  /** A send's figures and its completion's mark (decisions §33): its last job's end writes `send.completed`. */
  completion?: Pick<CompletionDeps, 'performances' | 'completions'>;
}

/** A job not finished comes back after `afterSeconds` (the queue's redelivery), having kept what it settled. */
export type DispatchResult =
  | { outcome: 'done' }
  | { outcome: 'retry_later'; reason: string; afterSeconds: number }
  | { outcome: 'dropped'; reason: string };

/** Why the rest of a send fails unsent: Meta refused its template (132016), or its DID cannot send. */
export interface Stop {
  code: string;
  title: string;
}

/**
 * Why a run stops before its job's end (decisions §23): its invocation's time is up, its number is booked ahead
 * by others (it waits `waitMs`), it sent its slice, or a block of it is held by another invocation. When more
 * than one holds, the first of these says when the job comes back.
 */
export type Ending = { why: 'time up' } | { why: 'crowded'; waitMs: number } | { why: 'sliced' } | { why: 'held elsewhere' };
const SAYS_MORE: Ending['why'][] = ['held elsewhere', 'sliced', 'crowded', 'time up'];

/** The run's ending becomes `ending` unless it already has one that says more. */
export function endRun(run: JobRun, ending: Ending) {
  if (!run.ending || SAYS_MORE.indexOf(ending.why) > SAYS_MORE.indexOf(run.ending.why)) run.ending = ending;
}

/** The sending number at the upstream, and its digits (the key of its throughput level). */
export interface SendingNumber {
  digits: string;
  phoneNumberId: string;
}

/** A job's run in one invocation: what it knows of its send now, and how its run ends. */
export interface JobRun {
  readonly job: DispatchJob;
  /** How it books its number's slots: whole blocks (a send of a few) or a chunk at a time at its turn (lanes.ts). */
  readonly booking: Booking;
  /** Absent for a DID with no number at the upstream: its recipients fail. */
  readonly number?: SendingNumber;
  /** When the send stops being sendable (decisions §22). */
  readonly expiresAt: number;
  readonly catalogId?: string;
  readonly cancel: CancelWatch;
  /** When this invocation began sending the job: its slice is counted from here. */
  startedAt: number;
  /** The send as last read: how much of it is settled tells how long a job crowded off its number waits. */
  latest: SendRecord;
  stopped?: Stop;
  /** When the template's pause ends, once a refusal (132015) or its pause item says it is paused. */
  pausedUntil?: number;
  /** The number's pace now: its level as last learned (asked again hourly or when Meta says it changed). */
  intervalMs: number;
  ending?: Ending;
  /** Launches awaiting the upstream's answer (at most `inFlight`). */
  readonly running: Set<Promise<void>>;
  /** Each block's record once its last answer is in, in block order. */
  readonly recordings: Promise<void>[];
}

/**
 * When the send stops being sendable: `message_send_ttl_seconds` (-1 is 30 days) after acceptance, or after its
 * time for a scheduled send (decisions §22).
 */
function expiryOf(send: SendRecord, job: DispatchJob): number {
  const ttl = job.message_send_ttl_seconds;
  if (ttl === undefined || ttl === 0) return Number.POSITIVE_INFINITY;
  return Date.parse(send.send_at ?? send.created_at) + (ttl === -1 ? LONGEST_TTL_S : ttl) * 1000;
}

/** A send's first job usually arrives while the send is settled `queued`, milliseconds later: wait that out. */
async function queuedSend(deps: DispatchDeps, sendId: string) {
  let send = await deps.sends.get(sendId);
  for (let look = 0; look < QUEUING_LOOKS && send?.status === 'queuing'; look++) {
    await deps.clock.sleep(QUEUING_LOOK_MS);
    send = await deps.sends.get(sendId);
  }
  return send;
}

/** A job of a paused send comes back when it may look again (paused-send.ts). */
export const pausedResult = async (deps: DispatchDeps, send: SendRecord, untilMs: number): Promise<DispatchResult> => ({
  outcome: 'retry_later',
  reason: PAUSED_REASON,
  afterSeconds: await markPaused(deps, send, untilMs),
});

/** The number's pace now, as the least interval between its messages. */
export async function paceNow(deps: DispatchDeps, run: Pick<JobRun, 'number'>) {
  const level = run.number ? await throughputLevel(deps, run.number, deps.clock.now()) : 'STANDARD';
  return 1000 / paceOf(level, deps.settings.messagesPerSecondCap);
}

/**
 * Takes a job up: its send read (a send whose jobs are not all on the queue is never dispatched, decisions §12),
 * the template's pause looked up, and the job marked begun; or what becomes of it when it cannot send. A job that
 * can send nothing (the send expired, stopped or was cancelled before it began) is settled whole, in one write;
 * otherwise it is marked begun first, so it is never also settled whole by a later delivery.
 */
export async function takeJob(deps: DispatchDeps, job: DispatchJob): Promise<JobRun | DispatchResult> {
  const send = await queuedSend(deps, job.send_id);
  // `queuing` may still become `queued`, so its job comes back later; an abandoned or unknown send's job is dropped.
  if (!send || send.status === 'abandoned') return { outcome: 'dropped', reason: send ? 'send abandoned' : 'unknown send' };
  if (send.status === 'queuing') return { outcome: 'retry_later', reason: 'send still queuing', afterSeconds: QUEUING_RETRY_S };
  const run = await openRun(deps, job, send);
  // The template as Meta left it (decisions §25): disabled, the rest fails; paused, nothing is sent until it is not.
  if (!run.cancel.cancelled && !run.stopped) {
    const pause = await pauseOf(deps, job, send);
    if (pause === 'disabled') run.stopped = DISABLED;
    else if (pause !== undefined) return pausedResult(deps, send, pause);
  }
  const whole = wholeOutcomeOf(run, deps.clock.now());
  const sendable = sendableOf(job);
  if (whole && (await deps.blocks.settleJob(job.send_id, job.job, sendable, whole, wholeJobRelease(job, whole))))
    return { outcome: 'done' };
  if ((await deps.blocks.beginJob(job.send_id, job.job)) === 'settled') return { outcome: 'done' };
  run.startedAt = deps.clock.now();
  run.intervalMs = await paceNow(deps, run);
  return run;
}

/** The run of a job whose send may be dispatched, before it looks at the template's pause. */
async function openRun(deps: DispatchDeps, job: DispatchJob, send: SendRecord): Promise<JobRun> {
  const expiresAt = expiryOf(send, job);
  const catalogId = needsCatalog(job) ? await deps.upstream.catalogOf(job.waba_id) : undefined;
  const number = job.phone_number_id ? { digits: recipientDigits(job.did), phoneNumberId: job.phone_number_id } : undefined;
  return {
    job,
    booking: bookingOf(job),
    number,
    expiresAt,
    catalogId,
    // A DID with no number at the upstream cannot send: its recipients fail, as a paused template's do.
    stopped: send.stopped ?? (number ? undefined : { code: 'no_phone_number', title: 'The DID has no phone number id' }),
    cancel: cancelWatch(() => deps.sends.isCancelled(job.send_id), deps.clock, send.cancelled_at !== undefined),
    startedAt: deps.clock.now(),
    latest: send,
    intervalMs: 0,
    running: new Set(),
    recordings: [],
  };
}

/** What every recipient of a job not yet sent becomes when the job can send nothing: the send stopped, cancelled or expired. */
function wholeOutcomeOf(run: JobRun, now: number): RecipientOutcome | undefined {
  if (run.stopped) return { kind: 'failed', code: run.stopped.code, title: run.stopped.title };
  if (run.cancel.cancelled) return { kind: 'cancelled' };
  return now >= run.expiresAt ? { kind: 'expired' } : undefined;
}

/**
 * What another read of the send says, before a block after the first is booked: its stop, its cancel, how much
 * of it is settled, the number's pace now, and Meta's pause of the template as its status event left it (the
 * block then stays unsent).
 */
export async function lookAgain(deps: DispatchDeps, run: JobRun) {
  const now = await deps.sends.get(run.job.send_id);
  run.latest = now ?? run.latest;
  run.stopped ??= now?.stopped;
  run.cancel.learn(now?.cancelled_at !== undefined);
  run.intervalMs = await paceNow(deps, run);
  const pause = now && !run.stopped ? await pauseOf(deps, run.job, now) : undefined;
  if (pause === 'disabled') run.stopped = DISABLED;
  else if (pause !== undefined) run.pausedUntil ??= pause;
}

/** Whether the run may launch a message now: not stopped, paused, cancelled or expired. */
export const mayLaunch = (run: JobRun, now: number) =>
  !run.stopped && run.pausedUntil === undefined && !run.cancel.cancelled && now < run.expiresAt;

/** Whether the invocation has time left to send `messages` more at the number's pace, and settle them. */
export const hasTimeFor = (deps: DispatchDeps, run: JobRun, messages: number) =>
  deps.remainingMs() >= deps.settings.safetyMs + messages * run.intervalMs;

/** How long a job crowded off its number waits (lanes.ts): its own send's recipients ahead of it count. */
export function crowdedWait(run: JobRun, freeInMs: number) {
  const c = run.latest.counts;
  const settled = c
    ? c.sent + c.failed + (c.capped ?? 0) + (c.capped_by_rule ?? 0) + c.expired + c.cancelled + c.duplicates_removed + (c.suppressed ?? 0)
    : 0;
  return crowdedWaitMs(freeInMs, run.job.first_index - settled, run.intervalMs);
}

/**
 * A promise that runs beside the loop gets a handler at once (an early throw must not leave one unhandled); the
 * loop still awaits it, so its error is not lost.
 */
export function aside<T>(promise: Promise<T>) {
  promise.catch(() => undefined);
  return promise;
}
