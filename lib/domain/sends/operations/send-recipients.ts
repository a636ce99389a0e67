import type { Caller } from '../../shared/caller.ts';
import { BLOCK } from '../dispatch/tuning.ts';
import { NotFound } from '../../shared/errors.ts';
import { type PageRequest, resolvePage } from '../../shared/paging.ts';
import type { RecipientBlockRef, SendCounts, RecipientLists, SendRecord, StoredRecipient } from '../ports.ts';
import { countsAsRead, moneyShownOn, type SendViewDeps, settledOf, visibleSend } from '../send-status.ts';
import { CAPPED, CAPPED_BY_RULE } from '../../shared/message-status.ts';
import { fromMicros } from '../../shared/money.ts';
import type { MoneyShown } from '../../money/pricing/visibility.ts';

/** A recipient's latest state (decisions §22): what the listing filters on. */
export const RECIPIENT_STATUSES = [
  'pending',
  'sent',
  'delivered',
  'read',
  'failed',
  'capped',
  'capped_by_rule',
  'expired',
  'cancelled',
  'duplicate',
  'suppressed',
  'held',
] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export const RECIPIENTS_PAGE = { size: 20, max: 100 };
/** A filtered page reads blocks in rounds, the first small (most pages end in it), each twice the last. */
const FIRST_ROUND = 2;
const LARGEST_ROUND = 16;

/** The send's blocks as its jobs laid them out: each job's positions in blocks of BLOCK, as the dispatcher claims them. */
export function blocksOf(send: Pick<SendRecord, 'total' | 'job_firsts'>): RecipientBlockRef[] {
  const firsts = send.job_firsts ?? [];
  const blocks: RecipientBlockRef[] = [];
  firsts.forEach((jobFirst, j) => {
    const end = firsts[j + 1] ?? send.total;
    for (let first = jobFirst; first < end; first += BLOCK) blocks.push({ first, size: Math.min(BLOCK, end - first), job: j + 1 });
  });
  return blocks;
}

/** The state a stored recipient is in now: its outcome, moved on by what the upstream reported of its message. */
export function recipientStatus(recipient: StoredRecipient): RecipientStatus {
  const outcome = recipient.outcome;
  if (!outcome) return 'pending';
  // Meta's per-user marketing limit (131049) is `capped`, apart from `failed` (decisions §28).
  // The client's own frequency cap skipped it (decisions §33): `capped_by_rule`, never sent.
  if (outcome.kind === 'failed') return outcome.code === CAPPED ? 'capped' : outcome.code === CAPPED_BY_RULE ? 'capped_by_rule' : 'failed';
  if (outcome.kind !== 'sent') return outcome.kind;
  const delivery = recipient.delivery ?? (outcome.held ? { held: true } : {});
  if (delivery.read) return 'read';
  if (delivery.delivered) return 'delivered';
  if (delivery.failed) return delivery.failed.code === CAPPED ? 'capped' : 'failed';
  return delivery.held ? 'held' : 'sent';
}

/** How many recipients are in a state: exact from the send's counts (`sent` counts delivered ones, `delivered` read ones). */
export function recipientsIn(status: RecipientStatus, total: number, given: SendCounts) {
  const counts = countsAsRead(given);
  const settled = settledOf(counts);
  const totals: Record<RecipientStatus, number> = {
    pending: total - settled,
    sent: counts.sent - counts.delivered - (counts.held ?? 0),
    held: counts.held ?? 0,
    delivered: counts.delivered - counts.read,
    read: counts.read,
    failed: counts.failed,
    capped: counts.capped,
    capped_by_rule: counts.capped_by_rule,
    expired: counts.expired,
    cancelled: counts.cancelled,
    duplicate: counts.duplicates_removed,
    suppressed: counts.suppressed,
  };
  return Math.max(0, totals[status]);
}

/**
 * A recipient of an A/B send (decisions §33): its variant, a test's rest the decided one once it went; its index
 * its place as asked (a test-first send lays its test share out first).
 */
function abView(recipient: StoredRecipient, send: SendRecord) {
  if (!send.ab) return { index: recipient.index };
  const test = send.ab.test;
  const rest = test?.rest_released_at && recipient.index >= test.rest_first ? test.decision?.winner : undefined;
  const went = recipient.outcome?.kind === 'sent' || recipient.outcome?.kind === 'failed';
  const variant = recipient.ab?.variant ?? (went ? rest : undefined);
  return { index: recipient.ab?.asked ?? recipient.index, ...(variant !== undefined && { variant }) };
}

/** A recipient as the listing answers it: its cost or price as the caller may see them (decisions §27). */
function view(recipient: StoredRecipient, shown: MoneyShown, send: SendRecord) {
  const status = recipientStatus(recipient);
  const outcome = recipient.outcome;
  const error =
    outcome?.kind === 'failed'
      ? { code: outcome.code, title: outcome.title }
      : (status === 'failed' || status === 'capped') && recipient.delivery?.failed
        ? recipient.delivery.failed
        : undefined;
  // The username a status reported (decisions §28), where the status path kept one.
  const username = (recipient.delivery as { username?: string } | undefined)?.username;
  const { index, ...ab } = abView(recipient, send);
  return {
    index,
    ...(recipient.to !== '' && { to: recipient.to }),
    ...(recipient.user_id && { user_id: recipient.user_id }),
    ...(username && { username }),
    status,
    ...ab,
    ...(outcome?.kind === 'sent' && { message_id: outcome.message_id, api: outcome.api ?? ('cloud' as const) }),
    ...(error && { error }),
    ...(recipient.delivery?.pricing && { pricing: recipient.delivery.pricing }),
    ...(recipient.delivery?.pricing && shown.cost && { cost: fromMicros(recipient.delivery.cost_micros ?? 0) }),
    ...(recipient.delivery?.price_micros !== undefined && shown.price && { price: fromMicros(recipient.delivery.price_micros) }),
    // Billed at Meta's cost, to an agent who may not see it (decisions §32): named, never filled with cost.
    ...(recipient.delivery?.pricing && !shown.cost && recipient.delivery.price_micros === undefined && { unpriced: true as const }),
    // What the person answered (decisions §33).
    ...(recipient.reply?.replied_at !== undefined && { replied_at: new Date(recipient.reply.replied_at).toISOString() }),
    ...(recipient.reply?.button && { button: recipient.reply.button }),
    ...(recipient.reply?.replied_after_at !== undefined && { replied_after_at: new Date(recipient.reply.replied_after_at).toISOString() }),
    updated_at: recipient.updated_at,
  };
}

/**
 * GET /v1/sends/{send_id}/recipients (decisions §22), in recipient order. Unfiltered, a page reads the blocks
 * that hold its positions. Filtered, the total is the send's count of that state (exact, read with the send),
 * and the page reads blocks from the first until it has its recipients or has seen every one of the state:
 * at most the send's blocks (a send has at most 10,000 recipients: 112 blocks).
 */
export async function listRecipients(
  deps: SendViewDeps & { recipientLists: RecipientLists },
  caller: Caller,
  sendId: string,
  query: PageRequest & { status?: RecipientStatus },
) {
  const send = await visibleSend(deps, caller, sendId);
  if (!send.job_firsts) throw new NotFound(`Send ${sendId} was accepted before its recipients were kept`);
  const page = resolvePage(query, RECIPIENTS_PAGE);
  const blocks = blocksOf(send);
  const [shown] = await moneyShownOn(deps, caller, [send]);
  const answer = (data: StoredRecipient[], total: number) => ({
    data: data.map((recipient) => view(recipient, shown, send)),
    total,
    page: page.page,
    page_size: page.size,
  });

  if (!query.status) {
    const end = Math.min(page.offset + page.size, send.total);
    const holding = blocks.filter((b) => b.first < end && b.first + b.size > page.offset);
    const stored = holding.length > 0 ? await deps.recipientLists.recipients(sendId, holding) : [];
    return answer(
      stored.filter((r) => r.index >= page.offset && r.index < end),
      send.total,
    );
  }
  const status = query.status;
  const total = recipientsIn(status, send.total, send.counts as SendCounts);
  if (page.offset >= total) return answer([], total);
  const found: StoredRecipient[] = [];
  let seen = 0;
  for (let next = 0, round = FIRST_ROUND; next < blocks.length && found.length < page.size && seen < total; round *= 2) {
    const take = blocks.slice(next, next + Math.min(round, LARGEST_ROUND));
    next += take.length;
    for (const recipient of await deps.recipientLists.recipients(sendId, take)) {
      if (recipientStatus(recipient) !== status) continue;
      if (seen >= page.offset && found.length < page.size) found.push(recipient);
      seen += 1;
    }
  }
  return answer(found, total);
}
