import { budgetCurrency, reserveBudget } from '../../money/budget.ts';
import type { BudgetRelease, ReservationWatch } from '../../money/ports.ts';
import { BASE_CURRENCY } from '../../money/pricing/rate-card.ts';
import { recipientEstimate, reservationFor, type SendReservation } from '../../money/pricing/reservation.ts';
import type { Caller } from '../../shared/caller.ts';
import { InvalidRequest } from '../../shared/errors.ts';
import type { DispatchJob, JobRecipient } from '../dispatch-job.ts';
import { isSendable, personKey } from '../dispatch/job.ts';
import type { ReservationReturns, SendRecord } from '../ports.ts';
import type { ReservationWatches } from '../operations/ports.ts';
import { firstLookAt } from '../operations/reservation-watch.ts';
import type { SendDeps } from './send-deps.ts';
import { shownEstimate } from './send-estimate.ts';
import { dispatchJobsOf, queueAllOrNothing } from './send-jobs.ts';
import { type CheckedSend, checkSend, type Judgement } from './send-pipeline.ts';
import { jobCommonOf, jobVariantsOf, sendRecordOf } from './send-record.ts';
import type { SendInput } from './send-rules.ts';
import { layoutOf } from './ab-plan.ts';
import type { TestSchedules } from '../ab/ports.ts';
import { abShown } from '../ab/ab-view.ts';

/**
 * POST /v1/template/messages/{did} (decisions §5, §12, §22): the pipeline's steps (send-pipeline.ts), then the
 * budget reserved, the send recorded and its jobs queued (or held for its time), all or nothing.
 */

/** A send refuses any problem of its request (a 400): the first ones of its recipients, then its components'. */
const refuseAny: Judgement = {
  recipientProblems: 100,
  refuse: ({ recipients, components }) => {
    const problems = [...recipients, ...components];
    if (problems.length > 0) throw new InvalidRequest('Recipients or components do not match the template', problems);
  },
};

/**
 * Reserve the budget: each recipient to be sent, for the month the send goes in, in the budget's currency, before
 * anything is recorded; each gives its part back as it settles (decisions §27).
 */
async function reserveFor(
  deps: Pick<SendDeps, 'budgets'>,
  checked: CheckedSend,
  reservation: SendReservation,
  recipients: JobRecipient[],
  sendId: string,
) {
  const reserved = recipients.filter(isSendable).reduce((sum, r) => sum + recipientEstimate(reservation, personKey(r)), 0);
  // Watched from shortly after now (reservation-watch.ts): whatever happens to this acceptance, it ends.
  const watch = { send_id: sendId, due_at: firstLookAt(checked.now) };
  const budget = await reserveBudget(deps, checked.clientId, reserved, reservation.month, watch);
  return { ...budget, whole: { client_id: checked.clientId, month: reservation.month, micros: reserved } };
}

/**
 * A send that failed before its jobs were all queued gives back what it reserved, once (decisions §30): through
 * the send record's mark, which the reservation's watch also asks for when it finds the send `queuing` or
 * `abandoned`; through the watch when the send was never recorded. A give-back that fails here is the watch's
 * to do.
 */
async function giveBackWhole(deps: AcceptDeps, send: SendRecord, budget: Reserved) {
  const at = deps.now?.() ?? new Date().toISOString();
  const returned = await deps.reservationReturns.returnWhole(send.send_id, budget.whole, at).catch(() => 'failed' as const);
  if (returned === 'no_send' && budget.watched) await deps.reservationWatches.returnUnrecorded(budget.watched).catch(() => false);
}

type Reserved = { whole: BudgetRelease; watched?: ReservationWatch };

/** Record and queue: the send and its jobs all or nothing; a send not queued gives back what it reserved. */
async function recordAndQueue(deps: AcceptDeps, send: SendRecord, jobs: DispatchJob[], budget: Reserved, asked?: number[]) {
  try {
    await queueAllOrNothing(deps, send, jobs, asked);
  } catch (error) {
    await giveBackWhole(deps, send, budget);
    throw error;
  }
}

/**
 * A send's ports, and where the whole reservation of a send that failed is given back once (decisions §30): apart
 * from SendDeps, whose list of ports is fixed (a dry run and a resend's checks take it too).
 */
export type AcceptDeps = SendDeps & {
  reservationReturns: ReservationReturns;
  reservationWatches: Pick<ReservationWatches, 'returnUnrecorded'>;
  /** A test-first send's decision, scheduled when it is accepted (decisions §33). */
  testSchedules: TestSchedules;
};

export async function sendTemplate(
  deps: AcceptDeps,
  caller: Caller,
  input: { pathDid: string; body: SendInput; sendId: string; resendOf?: string },
) {
  const { body } = input;
  const checked = await checkSend(deps, caller, { pathDid: input.pathDid, body, recipients: body.recipients }, refuseAny);
  const { recipients } = checked.people;
  // Reserved in the budget's currency (decisions §31): each recipient's part, given back as it settles, is in it too.
  const inBudget = await budgetCurrency(deps, checked.clientId, checked.price.priceList);
  const reservation = reservationFor(
    checked.template.category,
    checked.sendAt ?? checked.now,
    BASE_CURRENCY,
    checked.price.priceList,
    inBudget,
    checked.price.zone,
    body.max_price,
  );
  // An A/B send is laid out variant by variant, a test's rest last (decisions §33): each job sends one template.
  const layout = layoutOf(checked.ab, recipients);
  const jobs = dispatchJobsOf(jobCommonOf(checked, body, input.sendId, reservation), layout.parts, jobVariantsOf(checked));
  const budget = await reserveFor(deps, checked, reservation, recipients, input.sendId);
  const send = sendRecordOf(checked, input, reservation, jobs);
  await recordAndQueue(deps, send, jobs, budget, layout.asked);
  const warnings = [...checked.warnings, ...(budget.warning ? [budget.warning] : [])];
  return {
    success: true as const,
    send_id: input.sendId,
    ...(checked.sendAt && { status: 'scheduled' as const }),
    ...(checked.campaignWarning && { warning: checked.campaignWarning }),
    ...(warnings.length > 0 && { warnings }),
    estimate: shownEstimate(checked.price.estimate, caller),
    ...abShown(send.ab),
  };
}
