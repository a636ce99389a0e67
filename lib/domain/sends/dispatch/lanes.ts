import type { DispatchJob } from '../dispatch-job.ts';
import {
  CHUNK_MESSAGES,
  CHUNK_MS,
  HOLD_MS,
  MAX_CROWDED_WAIT_MS,
  NEAR_MS,
  SLOWED_CHUNK_MS,
  SMALL_SEND,
  TURN_AGE_MS,
  TURN_LAG_SHARE,
  URGENT_CHUNK_MS,
  URGENT_HORIZON_MS,
} from './tuning.ts';
import { MESSAGES_PER_SECOND } from './throughput.ts';

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
 * The messages of a chunk of `chunkMs` (a campaign's CHUNK_MS by default) at this interval: at least
 * CHUNK_MESSAGES (the pacing item then takes ≤ 1 write per 20 messages).
 */
export const chunkOf = (intervalMs: number, chunkMs = CHUNK_MS) => Math.max(CHUNK_MESSAGES, Math.ceil(chunkMs / intervalMs));

/**
 * A number shared by its sends (issue 44): a category's rank on the number, AUTHENTICATION (0) before UTILITY (1)
 * before MARKETING and any other (2).
 */
export type Rank = 0 | 1 | 2;
export const rankOf = (category: string | undefined): Rank => (category === 'AUTHENTICATION' ? 0 : category === 'UTILITY' ? 1 : 2);

/**
 * How a job books its number's slots (issue 44; docs/dispatch-jobs.md, "A number shared by its sends").
 * - A send of a few (at most SMALL_SEND, 100) books each block whole, at once, after what is booked: it never
 *   waits for a turn, and what it holds of the number is short.
 * - Any other send shares the number: it books a chunk at a time, each only at its turn: the number free within
 *   `horizonMs` and no send of a better rank holding it (`Pacer.reserveNear`). So the sends that share a number
 *   never book it more than a horizon and a chunk ahead (1.35 s for AUTHENTICATION and UTILITY at STANDARD, 1.5 s
 *   for a campaign), and a send of a few, of any category, has its slots within that of its arrival.
 * - Within a rank the turns go round: a job refused its turn asks again when the number is within its horizon of
 *   free (TURN_WAIT_MS), before the job ahead of it has used its chunk and asks for its next, so it books the
 *   next chunk and the other the one after. Of several refused, the one waiting longest asks first (turnLagMs).
 * - Between ranks: an AUTHENTICATION or UTILITY booking holds the number for its rank until its last slot and
 *   `holdMs` more (the gap to its next chunk), and one refused its turn holds it from its next ask, so a worse
 *   rank's next chunk gives way: AUTHENTICATION before UTILITY before MARKETING. A campaign holds nothing.
 * Rather than a queue of the ready sends in the pacing item (a write for each send that joins or leaves it, and
 * a turn given to a send that must be running to use it), the turns come from the horizon and the holds: one
 * read and one conditional write of the pacing item a chunk, a refused ask a read (and, for a better rank, a
 * write when its hold must move). An urgent chunk is a whole block at a STANDARD number's pace (its pacing writes
 * stay one a block) with a short horizon; a campaign's half a second with a horizon of a second (NEAR_MS).
 */
export type Booking = { shared: false } | SharedBooking;
export interface SharedBooking {
  shared: true;
  rank: Rank;
  chunkMs: number;
  horizonMs: number;
  holdMs: number;
}

/** What a booking tells the pacer of its turn: its rank and its hold (none for a send of a few). */
export const turnOf = (booking: Booking) => (booking.shared ? { rank: booking.rank, holdMs: booking.holdMs } : undefined);

/** An urgent send's share: a block at STANDARD's pace, a short horizon, and a hold of its rank (HOLD_MS). */
const URGENT_SHARE = { chunkMs: URGENT_CHUNK_MS, horizonMs: URGENT_HORIZON_MS, holdMs: HOLD_MS };
const CAMPAIGN_SHARE = { chunkMs: CHUNK_MS, horizonMs: NEAR_MS, holdMs: 0 };

export const bookingOf = (job: Pick<DispatchJob, 'template' | 'total_contacts'>): Booking => {
  if (job.total_contacts <= SMALL_SEND) return { shared: false };
  const rank = rankOf(job.template.category);
  return { shared: true, rank, ...(rank === 2 ? CAMPAIGN_SHARE : URGENT_SHARE) };
};

/**
 * The messages of a shared send's chunk at the spacing its block keeps: a campaign's half a second (at least 20
 * messages) at that spacing; an urgent send's 1.25 s at the number's own pace (a whole block of 90 at STANDARD,
 * so its pacing writes stay one a block however slow the process); either at most SLOWED_CHUNK_MS at its spacing
 * (a block that a stall slowed to 5 a second booked its 88 other slots 17 s ahead, and a campaign's 20 slow slots
 * 8 s, found by test/unit/pacing-properties.test.ts).
 */
export const chunkMessagesOf = (booking: SharedBooking, intervalMs: number) => (spacingMs: number) =>
  Math.min(
    booking.rank === 2 ? chunkOf(spacingMs, booking.chunkMs) : chunkOf(intervalMs, booking.chunkMs),
    Math.max(1, Math.ceil(SLOWED_CHUNK_MS / spacingMs)),
  );

/** A STANDARD number's interval at its level: the pace the urgent horizon is set for. */
const STANDARD_INTERVAL_MS = 1000 / MESSAGES_PER_SECOND.STANDARD;

/**
 * A shared send's horizon at its number's pace. A campaign's is NEAR_MS at every pace. An urgent send's is
 * URGENT_HORIZON_MS at STANDARD and longer in proportion at a faster pace, up to NEAR_MS: at HIGH a block is 90 ms
 * of the number, over before its job's next ask returns (its launches' answers take 80–180 ms, at most IN_FLIGHT at
 * once), so at 100 ms one job at a time booked ahead and the number kept 0.70× its level in the HIGH simulation
 * (issue 54); at 1 s other jobs of the send book beside it: 0.90×.
 */
export const horizonAtPace = (booking: SharedBooking, intervalMs: number) =>
  booking.rank === 2
    ? booking.horizonMs
    : Math.min(NEAR_MS, Math.max(booking.horizonMs, (booking.horizonMs * STANDARD_INTERVAL_MS) / intervalMs));

/** When a refused ask may be made again: once the number is within the horizon of free, and no better rank holds it. */
export const askAgainAt = (refused: { freeAt: number; heldUntil?: number }, horizonMs: number, waitedMs = TURN_AGE_MS) =>
  Math.max(refused.freeAt - horizonMs, refused.heldUntil ?? Number.NEGATIVE_INFINITY) + turnLagMs(horizonMs, waitedMs);

/**
 * How much later in its horizon a refused job asks again, the less the longer it has waited for its turn: the
 * jobs waiting for one number wake in the order they began waiting, so the longest wait takes the next chunk
 * rather than whichever asks first by a millisecond (three sends of a rank at once: one lost that race to each
 * of the others in turn and waited 9 s for its last 11 messages, test/unit/pacing-properties.test.ts).
 */
export const turnLagMs = (horizonMs: number, waitedMs: number) =>
  horizonMs * TURN_LAG_SHARE * Math.max(0, 1 - Math.max(0, waitedMs) / TURN_AGE_MS);

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
