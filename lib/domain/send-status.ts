import type { Caller } from './caller.ts';
import { NotFound } from './errors.ts';
import { type PageRequest, resolvePage } from './paging.ts';
import type { SendRecord, SendStore } from './ports.ts';
import { actingClient } from './tenancy.ts';

/**
 * Send status (decisions §12): what the dispatcher did with a send so far. `pending` is what it has not
 * settled yet; the status follows from the counts, so it is exact whenever they are.
 */
export function sendStatusOf(send: SendRecord) {
  const counts = send.counts ?? { duplicates_removed: 0, expired: 0, sent: 0, failed: 0, delivered: 0, read: 0 };
  const settled = counts.duplicates_removed + counts.expired + counts.sent + counts.failed;
  const pending = Math.max(0, send.total - settled);
  return {
    send_id: send.send_id,
    client_id: send.client_id,
    did: send.did,
    template: send.template,
    ...(send.campaignId !== undefined && { campaignId: send.campaignId }),
    status: pending === 0 ? ('completed' as const) : settled === 0 ? ('queued' as const) : ('sending' as const),
    created_at: send.created_at,
    total: send.total,
    duplicates_removed: counts.duplicates_removed,
    expired: counts.expired,
    sent: counts.sent,
    delivered: counts.delivered,
    read: counts.read,
    failed: counts.failed,
    pending,
    errors: send.errors ?? [],
    ...(send.stopped && { stopped: send.stopped }),
  };
}

/** GET /v1/sends/{send_id}: another client's send is not found, unless the caller has BSP_CN. */
export async function getSend(deps: { sends: SendStore }, caller: Caller, sendId: string) {
  const send = await deps.sends.get(sendId);
  const visible = send && send.status === 'queued' && (send.client_id === caller.clientId || caller.isBsp);
  if (!visible) throw new NotFound(`Send ${sendId} does not exist`);
  return sendStatusOf(send);
}

export const SENDS_PAGE = { size: 20, max: 100 };

/** GET /v1/sends: the acting client's sends, newest first. */
export async function listSends(deps: { sends: SendStore }, caller: Caller, query: PageRequest & { client_id?: number }) {
  const clientId = actingClient(caller, query.client_id);
  const page = resolvePage(query, SENDS_PAGE);
  const { sends, total } = await deps.sends.list(clientId, page);
  return { data: sends.map(sendStatusOf), total, page: page.page, page_size: page.size };
}
