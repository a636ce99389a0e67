import type { ReservationWatch } from '../../money/ports.ts';
import { recipientEstimate } from '../../money/pricing/reservation.ts';
import type { Log } from '../../shared/log.ts';
import { personKey } from '../dispatch/job.ts';
import type { TtlReturns, UnsettledMessage } from '../dispatch/ports.ts';
import type { RecipientLists, ReservationReturns, SendRecord, SendRecords, StoredRecipient } from '../ports.ts';
import type { ReservationWatches } from './ports.ts';
import { ACCEPTANCE_OVER_MS } from './release-send.ts';
import { blocksOf } from './send-recipients.ts';

/**
 * Reservations always end (decisions §30). Each send's reservation is written with a watch (BudgetStore.reserve),
 * due shortly after the acceptance; the hourly EndReservations job looks at every watch due:
 * - no send recorded: the acceptance crashed or failed between reserving and recording; the whole reservation
 *   comes back, once (the watch's conditional delete);
 * - a send never queued (`queuing` past its acceptance, or `abandoned`): the whole reservation comes back, once
 *   (the send's mark, ReservationReturns, which the acceptance's failure path and the scheduled release share);
 * - a send queued: its messages answered `sent` and never settled give back their parts at their TTL's end,
 *   each once (TtlReturns' mark), so a late delivered is charged and releases nothing more.
 * A watch looked at too early is filed again for when it can say more; one with nothing left is dropped.
 */

export interface ReservationWatchDeps {
  sends: Pick<SendRecords, 'get'>;
  recipientLists: Pick<RecipientLists, 'recipients'>;
  reservationWatches: ReservationWatches;
  reservationReturns: ReservationReturns;
  ttlReturns: TtlReturns;
  log: Log;
}

/** How long after a send's acceptance its watch is first looked at: past any acceptance (ACCEPTANCE_OVER_MS). */
export const FIRST_LOOK_MS = 20 * 60_000;
/** The longest TTL Meta allows a message, taken where the send asked for Meta's default (-1, or none). */
export const LONGEST_MESSAGE_TTL_S = 30 * 24 * 3600;
/**
 * Watches looked at per run of the job, the longest due first; the rest wait for the next run. Every send has one
 * and is looked at about twice (its first look and its TTL's end): 5,000 every 15 minutes is 240,000 sends a day.
 */
export const WATCHES_PER_RUN = 5_000;
/** Watches looked at at once: each is a few reads and a write. */
const AT_ONCE = 16;

/** When a watch is first due: FIRST_LOOK_MS after the acceptance. */
export const firstLookAt = (acceptedAt: string) => new Date(Date.parse(acceptedAt) + FIRST_LOOK_MS).toISOString();

/** The TTL a send's messages went with, in ms: Meta's longest where it asked for the default. */
export function ttlMsOf(send: Pick<SendRecord, 'request'>): number {
  const asked = send.request?.message_send_ttl_seconds;
  return (asked === undefined || asked < 0 ? LONGEST_MESSAGE_TTL_S : asked) * 1000;
}

export type WatchOutcome = 'returned_unrecorded' | 'returned_whole' | 'refiled' | 'returned_at_ttl' | 'forgotten';

/** Every watch due at `now`, each looked at once: what became of them, counted by outcome. */
export async function endReservations(deps: ReservationWatchDeps, now: string) {
  const counts: Partial<Record<WatchOutcome | 'failed', number>> = {};
  const due = await deps.reservationWatches.due(now, WATCHES_PER_RUN);
  for (let i = 0; i < due.length; i += AT_ONCE) {
    const outcomes = await Promise.all(
      due.slice(i, i + AT_ONCE).map((watch) =>
        // One watch failing (a throttled read) leaves it due for the next run; the others go on.
        lookAt(deps, watch, now).catch((error: unknown) => {
          deps.log.warn('reservation watch failed; looked at again next run', { send_id: watch.send_id, error: String(error) });
          return 'failed' as const;
        }),
      ),
    );
    for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}

/** One watch due: its send's state says how its reservation ends, or when to look again. */
export async function lookAt(deps: ReservationWatchDeps, watch: ReservationWatch, now: string): Promise<WatchOutcome> {
  const { reservationWatches: watches } = deps;
  const send = await deps.sends.get(watch.send_id);
  if (!send) return (await watches.returnUnrecorded(watch)) ? 'returned_unrecorded' : 'forgotten';
  if (send.reservation_returned_at) return forget(deps, watch);
  if (send.status !== 'queued') return neverQueued(deps, watch, send, now);
  // A scheduled send not gone yet: looked at after its time.
  if (send.send_at && !send.released_at && !send.cancelled_at) return refile(deps, watch, firstLookAt(send.send_at));
  return atTtlEnd(deps, watch, send, now);
}

/** A send `queuing` past its acceptance, or `abandoned`: its jobs never all went; the whole comes back once. */
async function neverQueued(deps: ReservationWatchDeps, watch: ReservationWatch, send: SendRecord, now: string) {
  if (send.status === 'queuing' && Date.parse(now) - Date.parse(send.created_at) < ACCEPTANCE_OVER_MS)
    return refile(deps, watch, firstLookAt(now));
  const returned = await deps.reservationReturns.returnWhole(send.send_id, watch, now);
  deps.log.warn('send never queued: its reservation given back', { send_id: send.send_id, status: send.status, returned });
  await deps.reservationWatches.forget(watch);
  return 'returned_whole';
}

/**
 * A send queued: each message answered `sent` and not settled gives back its part once its TTL has passed since
 * it was last heard of (its `updated_at`: its outcome's record or a `sent` status, never before its launch). While
 * positions are still to be sent, or messages within their TTL, the watch is filed again.
 */
async function atTtlEnd(deps: ReservationWatchDeps, watch: ReservationWatch, send: SendRecord, now: string): Promise<WatchOutcome> {
  const ttlMs = ttlMsOf(send);
  const blocks = blocksOf(send);
  const recipients = await deps.recipientLists.recipients(send.send_id, blocks);
  const nowMs = Date.parse(now);
  if (recipients.some((r) => r.outcome === undefined)) return refile(deps, watch, new Date(nowMs + ttlMs).toISOString());
  const unsettled = recipients.filter(isUnsettled);
  const over = unsettled.filter((r) => Date.parse(r.updated_at) + ttlMs <= nowMs);
  const returned =
    over.length > 0 ? await deps.ttlReturns.returnAtTtlEnd(send.send_id, watch.month, over.map(partOf(send, blocks)), now) : 0;
  if (returned > 0) deps.log.info('messages never settled gave back their reservation', { send_id: send.send_id, returned });
  const within = unsettled.filter((r) => Date.parse(r.updated_at) + ttlMs > nowMs);
  if (within.length > 0)
    return refile(deps, watch, new Date(Math.min(...within.map((r) => Date.parse(r.updated_at))) + ttlMs).toISOString());
  await deps.reservationWatches.forget(watch);
  return returned > 0 ? 'returned_at_ttl' : 'forgotten';
}

/** A message answered `sent` that no delivered, read or failed status has settled. */
const isUnsettled = (r: StoredRecipient) => r.outcome?.kind === 'sent' && !r.delivery?.delivered && !r.delivery?.failed;

/** A message's part of its send's reservation, and its block. */
const partOf =
  (send: SendRecord, blocks: ReturnType<typeof blocksOf>) =>
  (r: StoredRecipient): UnsettledMessage => ({
    index: r.index,
    block: blocks.find((b) => r.index >= b.first && r.index < b.first + b.size)?.first ?? r.index,
    micros: send.reservation ? recipientEstimate(send.reservation, personKey({ to: r.to || undefined, user_id: r.user_id })) : 0,
  });

async function refile(deps: ReservationWatchDeps, watch: ReservationWatch, dueAt: string): Promise<WatchOutcome> {
  await deps.reservationWatches.refile(watch, dueAt);
  return 'refiled';
}

async function forget(deps: ReservationWatchDeps, watch: ReservationWatch): Promise<WatchOutcome> {
  await deps.reservationWatches.forget(watch);
  return 'forgotten';
}
