import type { Caller } from '../../shared/caller.ts';
import { Conflict } from '../../shared/errors.ts';
import type { SendRecord, StoredRecipient } from '../ports.ts';
import { dryRunSend } from './dry-run.ts';
import { sendTemplate } from './send.ts';
import type { SendDeps } from './send-deps.ts';
import type { AcceptDeps } from './send.ts';
import type { SendInput } from './send-rules.ts';
import { blocksOf, recipientStatus } from '../operations/send-recipients.ts';
import { visibleSend } from '../send-status.ts';
import { LONGEST_TTL_S } from '../dispatch/tuning.ts';
import type { AbVariant } from '../ab/ab-send.ts';

/** Which of a send's recipients a resend takes (decisions §25). */
export type ResendWhich = 'failed' | 'not_delivered';

/**
 * Refusals a resend leaves out: the number cannot get WhatsApp (131026), Meta's marketing limit for the person
 * (131049), the person stopped marketing (131050); and `outcome_unknown`, whose message may have gone.
 */
const NOT_RESENT = new Set(['131026', '131049', '131050', 'outcome_unknown']);

/**
 * Whether a recipient is of a kind a resend of `which` takes: failed for a reason worth another try, or never
 * delivered (a `sent` one only once Meta can no longer deliver it: `mayStillDeliver`).
 */
export function isResent(recipient: StoredRecipient, which: ResendWhich): boolean {
  const status = recipientStatus(recipient);
  if (status === 'failed') {
    const code = recipient.outcome?.kind === 'failed' ? recipient.outcome.code : recipient.delivery?.failed?.code;
    return code === undefined || !NOT_RESENT.has(code);
  }
  return which === 'not_delivered' && (status === 'sent' || status === 'expired');
}

/** The request of a new send of these recipients, as the original was made (its header, options and values). */
function resendBody(original: SendRecord, caller: Caller, recipients: StoredRecipient[]): SendInput {
  return {
    did: original.did,
    type: 'template',
    channel: 'MSGCHAN',
    // A Direct Send's resend gives its category and message again (in `request`), never its recorded name; an A/B
    // send's its variants (decisions §33), each recipient with the variant its message went with.
    ...(original.request?.category === undefined && !original.ab && { template: original.template }),
    ...(original.ab && { variants: original.ab.variants.map(variantRequestOf) }),
    ...(original.campaignId !== undefined && { campaignId: original.campaignId }),
    ...(caller.isBsp && { client_id: original.client_id }),
    ...original.request,
    recipients: recipients.map((r) => ({
      ...(r.to !== '' && { to: r.to }),
      ...(r.user_id && { user_id: r.user_id }),
      ...(r.params && { params: r.params }),
      ...(original.ab && { variant: sentVariantOf(original, r) }),
    })),
  };
}

/** An A/B send's variant as its request gave it (decisions §33), for its resend. */
const variantRequestOf = (v: AbVariant) => ({
  template: v.name,
  language: v.language,
  weight: v.weight,
  ...(v.params && { params: v.params }),
});

/** The variant a recipient's message went with: its own, or its test's winner (a test's rest). */
const sentVariantOf = (original: SendRecord, r: StoredRecipient) => {
  const test = original.ab?.test;
  return r.ab?.variant ?? (test && r.index >= test.rest_first ? test.decision?.winner : undefined);
};

/**
 * Whether Meta may still deliver a message answered `sent` with no final status (decisions §30: never paid twice).
 * Its TTL at Meta is the Marketing Messages API's `ttl_seconds` of the request, else taken as the longest Meta
 * allows (30 days): the template's own TTL may have been edited since, so a shorter one is not known for sure. It
 * counts from the recipient's `updated_at`, never earlier than when the message went, so it errs on the safe side.
 */
export function mayStillDeliver(recipient: StoredRecipient, original: Pick<SendRecord, 'request'>, nowMs: number): boolean {
  if (recipientStatus(recipient) !== 'sent') return false;
  const ttlSeconds = original.request?.ttl_seconds ?? LONGEST_TTL_S;
  return nowMs < Date.parse(recipient.updated_at) + ttlSeconds * 1000;
}

async function chosen(deps: Pick<SendDeps, 'sends' | 'recipientLists' | 'now'>, caller: Caller, sendId: string, which: ResendWhich) {
  const original = await visibleSend(deps, caller, sendId);
  const nowMs = Date.parse(deps.now?.() ?? new Date().toISOString());
  const recipients = (await deps.recipientLists.recipients(sendId, blocksOf(original))).filter(
    (r) => isResent(r, which) && !mayStillDeliver(r, original, nowMs),
  );
  if (recipients.length === 0)
    throw new Conflict(`Send ${sendId} has no ${which.replace('_', ' ')} recipients to resend`, 'nothing_to_resend');
  return { original, recipients };
}

/**
 * POST /v1/sends/{send_id}/resend (decisions §25): a new send of the original's recipients that failed (or were
 * not delivered), with their values; the new send is `resend_of` the original, which lists it in `resent_as`.
 * A MARKETING resend skips the suppressed as any send does. With an Idempotency-Key, a repeat answers the same send.
 */
export async function resendSend(deps: AcceptDeps, caller: Caller, input: { sendId: string; which: ResendWhich; newSendId: string }) {
  const { original, recipients } = await chosen(deps, caller, input.sendId, input.which);
  const answer = await sendTemplate(deps, caller, {
    pathDid: original.did,
    body: resendBody(original, caller, recipients),
    sendId: input.newSendId,
    resendOf: input.sendId,
  });
  await deps.sends.markResent(input.sendId, input.newSendId);
  return { ...answer, resend_of: input.sendId, recipients: recipients.length };
}

/** `?dry_run=true`: which recipients a resend would take, checked as their send would be; nothing queued. */
export async function dryRunResend(deps: SendDeps, caller: Caller, input: { sendId: string; which: ResendWhich }) {
  const { original, recipients } = await chosen(deps, caller, input.sendId, input.which);
  const { recipients: items, ...body } = resendBody(original, caller, recipients);
  return dryRunSend(deps, caller, {
    pathDid: original.did,
    body,
    recipients: items.map((recipient, index) => ({ index, recipient })),
    refused: [],
    total: items.length,
  });
}
