import type { DispatchJob } from '../dispatch-job.ts';
import { CHUNK_MESSAGES, CHUNK_MS, MAX_CROWDED_WAIT_MS, SMALL_SEND } from './tuning.ts';

/**
 * Priority on a number (decisions §23): one-time passwords and account notices, and small sends, take a
 * number's next slots ahead of a running campaign. A `priority` job books its blocks whole; a `bulk` job books
 * a short chunk at a time, and only when the number is free soon, so a priority send's slots come within a
 * chunk or two of its arrival and the campaign's share of the number shrinks while it goes.
 */
export type Lane = 'priority' | 'bulk';

/** Template categories that cannot wait behind a campaign (Meta's AUTHENTICATION and UTILITY). */
const URGENT_CATEGORIES = new Set(['AUTHENTICATION', 'UTILITY']);

/** A job's lane: priority for an urgent category or a send of at most SMALL_SEND recipients. */
export const laneOf = (job: Pick<DispatchJob, 'template' | 'total_contacts'>): Lane =>
  URGENT_CATEGORIES.has(job.template.category ?? '') || job.total_contacts <= SMALL_SEND ? 'priority' : 'bulk';

/**
 * The dispatch queue's message group of a send's jobs (decisions §23): the tenant, and its priority lane apart,
 * so a fair queue serves a tenant's one-time passwords before its own campaign's backlog, not after it.
 */
export const queueGroupOf = (clientId: number, lane: Lane) => (lane === 'priority' ? `client-${clientId}-priority` : `client-${clientId}`);

/**
 * The messages of a bulk chunk at this interval: at least CHUNK_MESSAGES (the pacing item then takes ≤ 1 write per
 * 20 messages), and about CHUNK_MS of the number's time. A bulk job books its next chunk only when the number is
 * free within NEAR_MS: what a priority send may wait for the chunks booked ahead of it.
 */
export const chunkOf = (intervalMs: number) => Math.max(CHUNK_MESSAGES, Math.ceil(CHUNK_MS / intervalMs));

/**
 * How long a job that finds its number booked by others waits: until the number is free, or, when `ahead`
 * recipients of its own send before it are still to go (a long campaign's later jobs), about as long as the
 * number takes to send them. So a campaign's jobs on one number come back in turn rather than every second each,
 * and a job's receives stay far below the queue's maxReceiveCount whatever the campaign's length. At most
 * MAX_CROWDED_WAIT_MS: a job cannot be woken early (a cancel of its send is seen when it looks), and 100 receives
 * of 30 s let a job wait 50 minutes behind its own send on one number.
 */
export const crowdedWaitMs = (freeInMs: number, ahead: number, intervalMs: number) =>
  Math.min(Math.max(freeInMs, Math.max(0, ahead) * intervalMs), MAX_CROWDED_WAIT_MS);
