import type { JobQueue } from '../../shared/ports.ts';
import type { Log } from '../../shared/log.ts';
import { type AbSend, type AbTest, isRestJob, type TestDecision } from '../ab/ab-send.ts';
import { decideTest } from '../ab/decision-rule.ts';
import { decidedJob } from '../ab/job-variants.ts';
import type { TestDecisions, VariantResults } from '../ab/ports.ts';
import { laneOf, queueGroupOf } from '../dispatch/lanes.ts';
import type { BlockLedger, HeldJobs, SendRecords } from '../ports.ts';
import { type ReleaseDeps, releaseScheduledSend, settleHeldJobs } from './release-send.ts';
import { type CompletionDeps, completeIfDone } from '../performance/completion.ts';

/**
 * A test-first send's decision (decisions §33, docs/ab-sends.md): when its wait is over (its schedule, made with
 * the send, puts `{send_id, step: "decide"}` on the release queue), each variant's figures are read, the best rate
 * of the test's metric wins (decision-rule.ts), the decision is kept on the send, and the rest's held jobs go onto
 * the dispatch queue with the winner. Every step is safe to run again: the decision is kept once (the first stays,
 * and a second run reads it back), jobs queued twice are sent once (the dispatcher's claims), and the rest's release
 * is marked last, so a crash anywhere between is finished by the schedule's message coming back.
 */

export interface DecisionDeps {
  sends: Pick<SendRecords, 'get'>;
  heldJobs: Pick<HeldJobs, 'heldJobs'>;
  blocks: Pick<BlockLedger, 'settleJob'>;
  queue: JobQueue;
  results: VariantResults;
  decisions: TestDecisions;
  log: Log;
  now?: () => string;
  /** Its completion (decisions §33): a test-first send cancelled before its decision completes when its rest settles. */
  completion?: Omit<CompletionDeps, 'log'>;
}

/** A variant as a decision names it: its template and language. */
const nameOf = (variant: { name: string; language: string }) => `${variant.name} (${variant.language})`;

/** The decision from each variant's figures now. */
async function decisionOf(deps: DecisionDeps, sendId: string, ab: AbSend, test: AbTest, at: string): Promise<TestDecision> {
  const figures = await deps.results.figuresOf(sendId, ab.variants.length);
  const variants = ab.variants.map((v) => ({ weight: v.weight, name: nameOf(v) }));
  return decideTest(test.metric, figures, variants, at);
}

/** The rest's held jobs onto the dispatch queue, each sending the winner; how many. */
async function releaseRest(deps: DecisionDeps, send: { send_id: string; client_id: number; ab: AbSend }, winner: number) {
  const held = await deps.heldJobs.heldJobs(send.send_id);
  const rest = held.filter((job) => isRestJob(send.ab, job.job)).map((job) => decidedJob(job, winner));
  if (rest.length > 0) await deps.queue.send(rest as unknown as Record<string, unknown>[], queueGroupOf(send.client_id, laneOf(rest[0])));
  return rest.length;
}

export type DecisionOutcome = 'released' | 'cancelled' | 'skipped' | 'retry_later';

/** The send's test decided and its rest released; `retry_later` while a scheduled send's test share has not gone. */
export async function decideSendTest(deps: DecisionDeps, sendId: string): Promise<DecisionOutcome> {
  const send = await deps.sends.get(sendId);
  const ab = send?.ab;
  const test = ab?.test;
  // Not a test-first send, never queued (its reservation ends elsewhere, decisions §30), or its rest gone already.
  if (!send || !ab || !test || send.status !== 'queued' || test.rest_released_at) return 'skipped';
  // A scheduled send whose release is late: its test share has not gone, so it has no figures yet.
  if (send.send_at && !send.released_at && !send.cancelled_at) return 'retry_later';
  const now = deps.now?.() ?? new Date().toISOString();
  if (send.cancelled_at) {
    // The cancel settled the rest's jobs (it settles every job not begun); this settles what a crashed cancel left.
    await settleHeldJobs(deps, sendId, { kind: 'cancelled' });
    await deps.decisions.markRestReleased(sendId, now);
    if (deps.completion) await completeIfDone({ ...deps.completion, log: deps.log }, sendId, Date.parse(now));
    return 'cancelled';
  }
  const decision = test.decision ?? (await deps.decisions.decide(sendId, await decisionOf(deps, sendId, ab, test, now)));
  const jobs = await releaseRest(deps, { send_id: sendId, client_id: send.client_id, ab }, decision.winner);
  await deps.decisions.markRestReleased(sendId, now);
  deps.log.info('test decided: the rest goes with the winner', { winner: decision.winner, rule: decision.rule, jobs });
  return 'released';
}

/** The release queue's message (decisions §22, §33): a scheduled send's time, or a test's decision. */
export function releaseDue(deps: DecisionDeps & ReleaseDeps, message: { send_id: string; step?: 'decide' }) {
  return message.step === 'decide' ? decideSendTest(deps, message.send_id) : releaseScheduledSend(deps, message.send_id);
}
