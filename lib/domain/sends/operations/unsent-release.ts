import type { BudgetRelease } from '../../money/ports.ts';
import { releasedBy } from '../../money/pricing/reservation.ts';
import { personKey } from '../dispatch/job.ts';
import type { RecipientBlockRef, RecipientLists, SendRecord, StoredRecipient } from '../ports.ts';
import { blocksOf } from './send-recipients.ts';

/** A recipient the send would have sent: neither a repeat nor suppressed (its outcome says so as stored). */
export const isSendableStored = (r: StoredRecipient) => r.outcome?.kind !== 'duplicate' && r.outcome?.kind !== 'suppressed';

/**
 * What recipients that will never be sent give back of their send's reservation: each one's part, as the
 * dispatcher's own settlement computes it (dispatch/release.ts), read from the recipients as accepted.
 */
export function unsentReleaseOf(send: SendRecord, sendable: StoredRecipient[]): BudgetRelease | undefined {
  if (!send.reservation) return undefined;
  const parts = sendable.map((r) => ({ digits: personKey({ to: r.to || undefined, user_id: r.user_id }), kind: 'cancelled' }));
  return { client_id: send.client_id, month: send.reservation.month, micros: releasedBy(send.reservation, parts) };
}

/** The sendable recipients of these blocks of a send, as accepted. */
export async function sendableIn(
  deps: { recipientLists: Pick<RecipientLists, 'recipients'> },
  sendId: string,
  blocks: RecipientBlockRef[],
) {
  return (await deps.recipientLists.recipients(sendId, blocks)).filter(isSendableStored);
}

/** A send's whole reservation, recipient by recipient as it was reserved: what a send never queued gives back. */
export async function wholeReservationOf(deps: { recipientLists: Pick<RecipientLists, 'recipients'> }, send: SendRecord) {
  return unsentReleaseOf(send, await sendableIn(deps, send.send_id, blocksOf(send)));
}
