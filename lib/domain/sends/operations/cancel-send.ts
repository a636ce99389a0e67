import type { Caller } from '../../shared/caller.ts';
import { Conflict } from '../../shared/errors.ts';
import type { SendRecords } from '../ports.ts';
import { sendStatusOf, visibleSend } from '../send-status.ts';

/**
 * POST /v1/sends/{send_id}/cancel (decisions §22): the dispatcher sends no recipient it has not claimed yet
 * and counts it `cancelled`; a claimed one finishes as it would. Cancelling again changes nothing; a send with
 * nothing pending (completed) cannot be cancelled.
 */
export async function cancelSend(deps: { sends: SendRecords; now?: () => string }, caller: Caller, sendId: string) {
  const send = await visibleSend(deps, caller, sendId);
  const status = sendStatusOf(send).status;
  if (status === 'completed') throw new Conflict('The send has completed: nothing is left to cancel', 'send_completed');
  if (status !== 'cancelled') await deps.sends.cancel(sendId, deps.now?.() ?? new Date().toISOString());
  return { send_id: sendId, status: 'cancelled' as const };
}
