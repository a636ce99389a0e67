import { UpstreamUnavailable } from '../../shared/errors.ts';
import type { HeldJobs, RecipientLists, SendRecord, SendRecords, SendScheduler } from '../ports.ts';
import type { JobQueue } from '../../shared/ports.ts';
import { blocksOf } from '../operations/send-recipients.ts';
import type { DispatchJob, JobVariant } from '../dispatch-job.ts';
import { laneOf, queueGroupOf } from '../dispatch/lanes.ts';
import { isRestJob } from '../ab/ab-send.ts';
import { type LayoutPart, REST } from './ab-plan.ts';
import type { TestSchedules } from '../ab/ports.ts';

/** A send's recipients in dispatch jobs, and the jobs queued (or scheduled) all or nothing (decisions §12, §22). */

/** What queueing a send's jobs needs: its records, the dispatch queue and the scheduler. */
export interface QueueingDeps {
  sends: Pick<SendRecords, 'begin' | 'settle'>;
  recipientLists: Pick<RecipientLists, 'recordRecipients'>;
  heldJobs: Pick<HeldJobs, 'holdJobs'>;
  queue: JobQueue;
  scheduler: SendScheduler;
  /** A test-first send's decision, scheduled with it (decisions §33). */
  testSchedules: TestSchedules;
}

/**
 * Largest job: recipients per job, and a job's bytes with everything it carries. Five jobs of at most 204,000
 * bytes fill one 1 MiB queue batch, so a send takes about one queue request per MiB of recipients.
 */
const JOB_RECIPIENTS = 1000;
export const JOB_BYTES = 204_000;

/** Whether every character is ASCII (one native regex scan). */
const isAscii = (text: string) => !/[\u0080-\uffff]/.test(text);

/** The UTF-8 length of a string, counted without encoding it (a send counts 10,000 recipients). */
function utf8Length(text: string) {
  // ASCII (the usual JSON of recipients) is one byte a character: a native scan decides it far faster than the loop.
  if (isAscii(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair: one 4-byte character
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export const bytesOf = (value: unknown) => utf8Length(JSON.stringify(value));

/**
 * Recipients in jobs of at most JOB_RECIPIENTS recipients and `budget` bytes of recipients each. A full chunk
 * is measured whole (one serialization); only a chunk over the budget is measured recipient by recipient.
 */
export function splitJobs<T>(recipients: T[], budget = JOB_BYTES): T[][] {
  const jobs: T[][] = [];
  for (let start = 0; start < recipients.length; ) {
    const chunk = recipients.slice(start, start + JOB_RECIPIENTS);
    let count = chunk.length;
    if (bytesOf(chunk) > budget) {
      let size = 2; // the brackets
      count = 0;
      while (count < chunk.length) {
        const bytes = bytesOf(chunk[count]) + (count > 0 ? 1 : 0);
        if (count > 0 && size + bytes > budget) break;
        size += bytes;
        count++;
      }
    }
    jobs.push(chunk.slice(0, count));
    start += count;
  }
  return jobs;
}

/** What every job of a send carries besides its recipients. */
export type JobCommon = Omit<DispatchJob, 'job' | 'jobs' | 'first_index' | 'recipients'>;

/**
 * What every job of one part of an A/B send carries (decisions §33): its variant's template, place and values; a
 * test's rest every variant, until its release makes the winner its own.
 */
function partCommon(common: JobCommon, variant: LayoutPart['variant'], variants: JobVariant[] | undefined): JobCommon {
  if (variant === undefined || !variants) return common;
  if (variant === REST) return { ...common, variants };
  const { template, params } = variants[variant];
  return { ...common, template, variant, ...(params && { variant_params: params }) };
}

/**
 * A send's jobs: each part of its layout (ab-plan.ts) split apart, each job with the part every job carries (which
 * counts against its bytes); an A/B send's variants so each sends one template (decisions §33).
 */
export function dispatchJobsOf(common: JobCommon, parts: LayoutPart[], variants?: JobVariant[]) {
  const split = parts.flatMap((part) => {
    const carried = partCommon(common, part.variant, variants);
    const budget = JOB_BYTES - bytesOf({ ...carried, job: 0, jobs: 0, first_index: 0, recipients: [] });
    return splitJobs(part.recipients, budget).map((recipients) => ({ carried, recipients }));
  });
  let firstIndex = 0;
  return split.map(({ carried, recipients }, i): DispatchJob => {
    const job = { ...carried, job: i + 1, jobs: split.length, first_index: firstIndex, recipients };
    firstIndex += recipients.length;
    return job;
  });
}

/** An A/B send's part of a block (decisions §33): its job's variant (none for a test's rest yet), its recipients' places as asked. */
const abOfBlock = (job: DispatchJob, asked: number[] | undefined, first: number, size: number) => ({
  ...(job.variant !== undefined && { variant: job.variant }),
  ...(asked && { asked: asked.slice(first, first + size) }),
});

/** Each block's recipients as the jobs lay them out (decisions §22): kept for the recipients listing. */
function recipientBlocks(send: SendRecord, jobs: DispatchJob[], asked?: number[]) {
  return blocksOf(send).map((ref) => {
    const job = jobs[ref.job - 1];
    const recipients = job.recipients.slice(ref.first - job.first_index, ref.first - job.first_index + ref.size);
    const suppressed = recipients.flatMap((r, offset) => (r.suppressed ? [offset] : []));
    return {
      ref,
      to: recipients.map((r) => r.to),
      ...(recipients.some((r) => r.user_id !== undefined) && { user_ids: recipients.map((r) => r.user_id) }),
      repeats: recipients.map((r) => r.duplicate_of),
      ...(suppressed.length > 0 && { suppressed }),
      params: recipients.map((r) => r.params),
      ...(send.ab && { ab: abOfBlock(job, asked, ref.first, ref.size) }),
    };
  });
}

/**
 * All of a send's jobs are queued or none is dispatched (decisions §12): the send is recorded `queuing`, its
 * jobs queued, then it is settled `queued`; when the queue fails partway it is settled `abandoned`, and jobs
 * of a send that is not `queued` are never dispatched.
 */
export async function queueAllOrNothing(deps: QueueingDeps, send: SendRecord, jobs: DispatchJob[], asked?: number[]) {
  try {
    await deps.sends.begin(send);
  } catch {
    throw new UpstreamUnavailable('The send could not be recorded');
  }
  try {
    // Indexed by person on its number (decisions §33): a reply finds the message it answers.
    await deps.recipientLists.recordRecipients(send.send_id, recipientBlocks(send, jobs, asked), send.created_at, send.did);
    // A scheduled send's jobs wait in the table for its schedule (decisions §22), made once they are there; a
    // test-first send's rest for its decision (decisions §33).
    const held = send.send_at ? jobs : jobs.filter((job) => isRestJob(send.ab, job.job));
    if (held.length > 0) await deps.heldJobs.holdJobs(send.send_id, held);
  } catch {
    // Still `queuing`, and nothing queued: never dispatched, so the caller may send again.
    throw new UpstreamUnavailable('The send could not be recorded');
  }
  // Its jobs' message group on the queue: the tenant, and its priority lane apart (decisions §23).
  const group = jobs.length > 0 ? queueGroupOf(send.client_id, laneOf(jobs[0])) : undefined;
  let failing = 'The scheduler is unreachable';
  try {
    if (send.send_at) await deps.scheduler.schedule(send.send_id, send.send_at);
    if (send.ab?.test) await deps.testSchedules.scheduleDecision(send.send_id, send.ab.test.decide_at);
    failing = 'The dispatch queue is unreachable';
    const now = send.send_at ? [] : jobs.filter((job) => !isRestJob(send.ab, job.job));
    if (now.length > 0) await deps.queue.send(now as unknown as Record<string, unknown>[], group);
  } catch {
    await deps.sends.settle(send, 'abandoned').catch(() => undefined);
    throw new UpstreamUnavailable(failing);
  }
  try {
    await deps.sends.settle(send, 'queued');
  } catch {
    // Still `queuing`: its jobs are never dispatched, so the caller may send again.
    throw new UpstreamUnavailable('The send could not be recorded');
  }
}
