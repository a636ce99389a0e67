import type { BudgetRelease } from '../../money/ports.ts';
import type { PositionOutcome } from '../ports.ts';
import { releasedBy } from '../../money/pricing/reservation.ts';
import type { DispatchJob } from '../dispatch-job.ts';
import { isSendable, personKey } from './job.ts';

/**
 * What settling a job's positions gives back of its send's reservation (decisions §27): the parts of the
 * recipients that will never be delivered now, for the month the send reserved in. Nothing for a send that
 * reserved nothing (accepted before issue 42).
 */
export function releaseOf(job: DispatchJob, settled: { position: number; outcome: PositionOutcome }[]): BudgetRelease | undefined {
  if (!job.reservation) return undefined;
  const parts = settled.map(({ position, outcome }) => ({ digits: personKey(job.recipients[position]), kind: outcome.kind }));
  return { client_id: job.client_id, month: job.reservation.month, micros: releasedBy(job.reservation, parts) };
}

/** A job settled whole with one outcome: every recipient it would have sent. */
export const wholeJobRelease = (job: DispatchJob, outcome: PositionOutcome) =>
  releaseOf(
    job,
    job.recipients.flatMap((r, position) => (isSendable(r) ? [{ position, outcome }] : [])),
  );
