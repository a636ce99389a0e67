import { cloudMessage, needsCatalog } from './cloud-message.ts';
import { type DispatchJob, recipientDigits } from './dispatch-job.ts';
import { messageReference } from './delivery.ts';
import type { Log } from './log.ts';
import { STANDARD_MESSAGES_PER_SECOND } from './throughput.ts';
import type { ClaimLease, MessageUpstream, Pacer, RecipientClaim, RecipientOutcome, SendRecord, SendStore } from './ports.ts';

/**
 * The dispatcher (decisions §12): a job's recipients become Cloud API messages, each recipient of a send sent
 * at most once. Per block of recipients: claim them (a conditional write each, so a job delivered twice or
 * run by two invocations sends nothing twice), reserve send slots for the number (paced across invocations),
 * send at those slots with bounded parallelism, retry throughput limits and upstream faults with backoff and
 * jitter, and settle the outcomes with the send's counts in one write.
 */
export interface DispatchSettings {
  /** Messages per second per sending number (MESSAGES_PER_SECOND). */
  messagesPerSecond: number;
  /** Attempts per message for retryable refusals, the first included. */
  attempts: number;
  /** First backoff; doubles per attempt, with full jitter, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Messages awaiting the upstream's answer at once, per invocation. */
  inFlight: number;
}

export const DEFAULT_DISPATCH: DispatchSettings = {
  messagesPerSecond: STANDARD_MESSAGES_PER_SECOND,
  attempts: 6,
  backoffMs: 200,
  maxBackoffMs: 10_000,
  inFlight: 64,
};

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface DispatchDeps {
  sends: SendStore;
  pacer: Pacer;
  upstream: MessageUpstream;
  log: Log;
  clock: Clock;
  settings: DispatchSettings;
  /** This invocation: it holds the claims it makes until its time is up. */
  holder: string;
  remainingMs: () => number;
  random?: () => number;
  /** Told each settled block's tally (the worker counts messages dispatched and failed as metrics). */
  onSettled?: (tally: { sent: number; failed: number }) => void;
}

/** Graph's codes for a template that may no longer be sent: the send stops (upstream-facts §6.2). */
const STOPPING = new Set(['132015', '132016']);
/** Recipients per claim and per settlement: one transaction each (the settlement also updates the send). */
const BLOCK = 90;
/** An invocation stops taking blocks this long before its time is up, so it settles what it sent. */
const SAFETY_MS = 15_000;
/** How far ahead a number may be booked before a job leaves it to the others (see the loop). */
const MAX_BACKLOG_MS = 5_000;
/** A claim outlives its invocation by this much before another invocation may call it lost. */
const LEASE_MARGIN_MS = 30_000;
const THIRTY_DAYS_S = 30 * 86_400;

/** When the send stops being sendable: `message_send_ttl_seconds` after acceptance (-1 is 30 days). */
function expiryOf(send: SendRecord, job: DispatchJob): number {
  const ttl = job.message_send_ttl_seconds;
  if (ttl === undefined || ttl === 0) return Number.POSITIVE_INFINITY;
  return Date.parse(send.created_at) + (ttl === -1 ? THIRTY_DAYS_S : ttl) * 1000;
}

/** A job not finished comes back after `afterSeconds` (the queue's redelivery), having kept what it settled. */
export type DispatchResult =
  | { outcome: 'done' }
  | { outcome: 'retry_later'; reason: string; afterSeconds: number }
  | { outcome: 'dropped'; reason: string };

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
  const { sends, clock, settings, log } = deps;
  const send = await queuedSend(deps, job.send_id);
  // A send whose jobs are not all on the queue is never dispatched (decisions §12): `queuing` may still become
  // `queued`, so its job comes back later; an abandoned or unknown send's job is dropped.
  if (!send || send.status === 'abandoned') return { outcome: 'dropped', reason: send ? 'send abandoned' : 'unknown send' };
  if (send.status === 'queuing') return { outcome: 'retry_later', reason: 'send still queuing', afterSeconds: 10 };

  const claims: (RecipientClaim & { position: number })[] = job.recipients.map((recipient, i) => {
    const index = job.first_index + i;
    return { index, key: job.allow_duplicates ? `#${index}` : recipientDigits(recipient.to), position: i };
  });
  const intervalMs = 1000 / settings.messagesPerSecond;
  const expiresAt = expiryOf(send, job);
  const catalogId = needsCatalog(job) ? await deps.upstream.catalogOf(job.waba_id) : undefined;
  // A DID with no number at the upstream cannot send: its recipients fail, as a paused template's do.
  let stopped = send.stopped ?? (job.phone_number_id ? undefined : { code: 'no_phone_number', title: 'The DID has no phone number id' });
  let unfinished = false;

  // A job that can send nothing (the send expired or stopped before it began) is settled whole, in one write;
  // otherwise it is marked begun first, so it is never also settled whole by a later delivery.
  const whole: RecipientOutcome | undefined = stopped
    ? { kind: 'failed', code: stopped.code, title: stopped.title }
    : clock.now() >= expiresAt
      ? { kind: 'expired' }
      : undefined;
  if (whole && (await sends.settleJob(job.send_id, job.job, job.recipients.length, whole))) return { outcome: 'done' };
  if ((await sends.beginJob(job.send_id, job.job)) === 'settled') return { outcome: 'done' };

  const hasTimeFor = (messages: number) => deps.remainingMs() >= SAFETY_MS + messages * intervalMs;
  /**
   * A block made ready to send: its recipients claimed, the send's stop looked up, and its slots reserved.
   * Done for the next block while this one sends, so the number's slots follow each other without a gap.
   */
  const prepareBlock = async (start: number) => {
    const block = claims.slice(start, start + BLOCK);
    const lease: ClaimLease = { holder: deps.holder, untilMs: clock.now() + deps.remainingMs() + LEASE_MARGIN_MS };
    const statuses = await sends.claim(job.send_id, block, lease, clock.now());
    if (statuses.includes('busy')) unfinished = true;
    const mine = block.filter((_, i) => statuses[i] === 'claimed');
    if (mine.length === 0) return { mine, lease, first: 0 };
    if (start > 0) stopped ??= (await sends.get(job.send_id))?.stopped;
    const sendable = !stopped && clock.now() < expiresAt;
    const first = sendable ? await deps.pacer.reserve(job.phone_number_id as string, mine.length, intervalMs, clock.now()) : 0;
    return { mine, lease, first };
  };
  // Promises that run beside the loop get a handler at once (an early throw must not leave one unhandled);
  // the loop still awaits each, so their errors are not lost.
  const aside = <T>(promise: Promise<T>) => {
    promise.catch(() => undefined);
    return promise;
  };
  const running = new Set<Promise<void>>();
  let lastLaunch = Number.NEGATIVE_INFINITY;
  const recordings: Promise<void>[] = [];
  let timeUp = !hasTimeFor(Math.min(BLOCK, claims.length));
  let crowdedFor: number | undefined;
  let next = timeUp ? undefined : aside(prepareBlock(0));

  for (let start = 0; next; start += BLOCK) {
    const { mine, lease, first } = await next;
    const following = start + BLOCK;
    next = undefined;
    // A number booked further ahead than MAX_BACKLOG_MS (other jobs send on it) is left to them after this
    // block: the invocation is freed for other numbers and the job comes back when the number has room.
    const backlog = first - clock.now();
    if (following < claims.length) {
      if (mine.length > 0 && backlog > MAX_BACKLOG_MS) crowdedFor = backlog;
      else if (hasTimeFor(mine.length + Math.min(BLOCK, claims.length - following))) next = aside(prepareBlock(following));
      else timeUp = true;
    }
    if (mine.length === 0) continue;

    const outcomes: { claim: RecipientClaim; outcome: RecipientOutcome }[] = [];
    const block: Promise<void>[] = [];
    if (stopped) for (const claim of mine) outcomes.push({ claim, outcome: { kind: 'failed', code: stopped.code, title: stopped.title } });
    else if (clock.now() >= expiresAt) for (const claim of mine) outcomes.push({ claim, outcome: { kind: 'expired' } });
    else {
      for (const [k, claim] of mine.entries()) {
        // At its slot; a late invocation catches up at most at twice the pace (never sooner than half an
        // interval after its previous message), so timer lateness does not add up and a stall ends in no burst.
        const wait = Math.max(first + k * intervalMs, lastLaunch + intervalMs / 2) - clock.now();
        if (wait > 0) await clock.sleep(wait);
        lastLaunch = clock.now();
        while (running.size >= settings.inFlight) await Promise.race(running);
        const sending = (async () => {
          const outcome = await sendOne(deps, job, claim, { expiresAt, catalogId, isStopped: () => stopped });
          if (outcome.kind === 'failed' && STOPPING.has(outcome.code) && !stopped) {
            stopped = { code: outcome.code, title: outcome.title };
            await sends.stop(job.send_id, stopped);
            log.warn('send stopped: the template may no longer be sent', { code: outcome.code });
          }
          outcomes.push({ claim, outcome });
        })();
        running.add(sending);
        block.push(sending);
        void sending.then(
          () => running.delete(sending),
          () => running.delete(sending),
        );
      }
    }
    // Settled once the block's last answer is in, while the next block already sends.
    recordings.push(
      aside(
        Promise.all(block).then(async () => {
          await sends.record(job.send_id, outcomes, lease);
          const sent = outcomes.filter((o) => o.outcome.kind === 'sent').length;
          log.info('dispatched block', { recipients: outcomes.length, sent });
          deps.onSettled?.({ sent, failed: outcomes.length - sent });
        }),
      ),
    );
  }
  await Promise.all(recordings);
  if (timeUp) return { outcome: 'retry_later', reason: 'invocation time is up', afterSeconds: 0 };
  if (crowdedFor !== undefined)
    return { outcome: 'retry_later', reason: 'the number is busy with other jobs', afterSeconds: Math.ceil(crowdedFor / 1000) };
  // Recipients another invocation holds are settled by it, or called lost once its lease is over.
  return unfinished ? { outcome: 'retry_later', reason: 'recipients held by another invocation', afterSeconds: 30 } : { outcome: 'done' };
}

/** One message, with retries of retryable refusals: each retry waits its backoff and takes a new slot. */
async function sendOne(
  deps: DispatchDeps,
  job: DispatchJob,
  recipient: { position: number; key: string },
  context: { expiresAt: number; catalogId?: string; isStopped: () => { code: string; title: string } | undefined },
): Promise<RecipientOutcome> {
  const { clock, settings } = deps;
  const message = cloudMessage(job, job.recipients[recipient.position], { catalogId: context.catalogId });
  const reference = messageReference(job.send_id, recipient.key);
  const random = deps.random ?? Math.random;
  let last: RecipientOutcome = { kind: 'failed', code: 'not_attempted', title: 'Not attempted' };
  for (let attempt = 1; attempt <= settings.attempts; attempt++) {
    const stopped = context.isStopped();
    if (stopped) return { kind: 'failed', code: stopped.code, title: stopped.title };
    if (clock.now() >= context.expiresAt) return { kind: 'expired' };
    const answer = await deps.upstream.sendMessage(job.phone_number_id as string, message as unknown as Record<string, unknown>, reference);
    if (answer.kind === 'accepted') return { kind: 'sent', message_id: answer.message_id };
    // The request left and no answer came: the upstream may have sent it, so it is never sent again.
    if (answer.kind === 'unknown') return { kind: 'failed', code: 'outcome_unknown', title: 'No answer from the upstream in time' };
    last = { kind: 'failed', code: answer.code, title: answer.title };
    if (!answer.retryable) return last;
    if (attempt < settings.attempts) {
      const backoff = random() * Math.min(settings.maxBackoffMs, settings.backoffMs * 2 ** (attempt - 1));
      await clock.sleep(backoff);
      const slot = await deps.pacer.reserve(job.phone_number_id as string, 1, 1000 / settings.messagesPerSecond, clock.now());
      const wait = slot - clock.now();
      if (wait > 0) await clock.sleep(wait);
    }
  }
  return last;
}
