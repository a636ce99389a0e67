import { cloudMessage, needsCatalog } from './cloud-message.ts';
import { type DispatchJob, recipientDigits } from './dispatch-job.ts';
import type { Log } from './log.ts';
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
  messagesPerSecond: 80,
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
}

/** Graph's codes for a template that may no longer be sent: the send stops (upstream-facts §6.2). */
const STOPPING = new Set(['132015', '132016']);
/** Recipients per claim and per settlement: one transaction each (the settlement also updates the send). */
const BLOCK = 90;
/** An invocation stops taking blocks this long before its time is up, so it settles what it sent. */
const SAFETY_MS = 15_000;
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

  for (let start = 0; start < claims.length; start += BLOCK) {
    const block = claims.slice(start, start + BLOCK);
    if (deps.remainingMs() < SAFETY_MS + block.length * intervalMs)
      return { outcome: 'retry_later', reason: 'invocation time is up', afterSeconds: 0 };
    const lease: ClaimLease = { holder: deps.holder, untilMs: clock.now() + deps.remainingMs() + LEASE_MARGIN_MS };
    const statuses = await sends.claim(job.send_id, block, lease, clock.now());
    if (statuses.includes('busy')) unfinished = true;
    const mine = block.filter((_, i) => statuses[i] === 'claimed');
    if (mine.length === 0) continue;
    if (start > 0) stopped ??= (await sends.get(job.send_id))?.stopped;

    const outcomes: { claim: RecipientClaim; outcome: RecipientOutcome }[] = [];
    const settleAll = (outcome: RecipientOutcome) => {
      for (const claim of mine) outcomes.push({ claim, outcome });
    };
    if (stopped) settleAll({ kind: 'failed', code: stopped.code, title: stopped.title });
    else if (clock.now() >= expiresAt) settleAll({ kind: 'expired' });
    else {
      const numberId = job.phone_number_id as string;
      const first = await deps.pacer.reserve(numberId, mine.length, intervalMs, clock.now());
      const running = new Set<Promise<void>>();
      for (const [k, claim] of mine.entries()) {
        const wait = first + k * intervalMs - clock.now();
        if (wait > 0) await clock.sleep(wait);
        if (running.size >= settings.inFlight) await Promise.race(running);
        const sending = (async () => {
          const outcome = await sendOne(deps, job, claim.position, { expiresAt, catalogId, isStopped: () => stopped });
          if (outcome.kind === 'failed' && STOPPING.has(outcome.code) && !stopped) {
            stopped = { code: outcome.code, title: outcome.title };
            await sends.stop(job.send_id, stopped);
            log.warn('send stopped: the template may no longer be sent', { send_id: job.send_id, code: outcome.code });
          }
          outcomes.push({ claim, outcome });
        })();
        running.add(sending);
        void sending.finally(() => running.delete(sending));
      }
      await Promise.all(running);
    }
    await sends.record(job.send_id, outcomes, lease);
    log.info('dispatched block', {
      send_id: job.send_id,
      job: job.job,
      recipients: outcomes.length,
      sent: outcomes.filter((o) => o.outcome.kind === 'sent').length,
    });
  }
  // Recipients another invocation holds are settled by it, or called lost once its lease is over.
  return unfinished ? { outcome: 'retry_later', reason: 'recipients held by another invocation', afterSeconds: 30 } : { outcome: 'done' };
}

/** One message, with retries of retryable refusals: each retry waits its backoff and takes a new slot. */
async function sendOne(
  deps: DispatchDeps,
  job: DispatchJob,
  position: number,
  context: { expiresAt: number; catalogId?: string; isStopped: () => { code: string; title: string } | undefined },
): Promise<RecipientOutcome> {
  const { clock, settings } = deps;
  const message = cloudMessage(job, job.recipients[position], { catalogId: context.catalogId });
  const random = deps.random ?? Math.random;
  let last: RecipientOutcome = { kind: 'failed', code: 'not_attempted', title: 'Not attempted' };
  for (let attempt = 1; attempt <= settings.attempts; attempt++) {
    const stopped = context.isStopped();
    if (stopped) return { kind: 'failed', code: stopped.code, title: stopped.title };
    if (clock.now() >= context.expiresAt) return { kind: 'expired' };
    const answer = await deps.upstream.sendMessage(job.phone_number_id as string, message as unknown as Record<string, unknown>);
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
