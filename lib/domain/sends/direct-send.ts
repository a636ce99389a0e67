import { Unprocessable, UpstreamUnavailable } from '../shared/errors.ts';
import { upper } from '../shared/text.ts';
import type { MetaTemplate } from '../templates/template-record.ts';
import type { DirectSend } from './dispatch-job.ts';
import type { DirectSendUpstream } from './ports.ts';

export type { DirectMessage, DirectSend } from './dispatch-job.ts';

/**
 * Direct Send (issue 55 item 2, decisions §34, docs/platform-2027.md §2): a send gives a `category` and the
 * message instead of a template; Graph's `/messages` takes the free-form message with `category`, and Meta
 * makes (or reuses) an `AUTO_GENERATED` template of its content. Only on a WABA Meta enabled; priced at the
 * utility rate, as a utility template.
 */

/** The name a Direct Send is recorded under until Meta names its generated template. */
export const DIRECT_SEND_TEMPLATE = 'direct_send';

/**
 * Graph's Direct Send errors by code (platform-2027 §2, Meta's "Direct Send API reference"), each named: the
 * dispatcher's recipients fail with these titles, and the service refuses an edit of a generated template as
 * Meta would (2388318) without asking it. Codes Meta added after 139200 could not be read: UNCONFIRMED.
 */
export const DIRECT_SEND_ERRORS: Record<string, { name: string; title: string }> = {
  '139200': { name: 'direct_send_blocked', title: 'Direct Send utility or authentication access is blocked' },
  '2388318': { name: 'direct_send_template_not_editable', title: 'Can’t update a Direct Send template' },
  '2388330': { name: 'direct_send_template_not_deletable', title: 'Can’t delete a Direct Send template' },
  '131064': {
    name: 'template_classification_limit',
    title: 'Messaging limit due to template classification violations (template and Direct Send messages)',
  },
};

/** Graph's error 100 to a Direct Send on a WABA Meta has not enabled (synchronous, platform-2027 §2). */
export const DIRECT_SEND_NOT_ENABLED = 'Direct Send isn’t enabled for this account';

/**
 * What a Direct Send is sent as: a template of its own (never looked up or listed), APPROVED, of its category,
 * with nothing to fill in. Its reservation and estimate price it by that category: the utility rate.
 */
export function directTemplate(direct: DirectSend): MetaTemplate {
  return {
    id: DIRECT_SEND_TEMPLATE,
    name: DIRECT_SEND_TEMPLATE,
    language: 'und',
    status: 'APPROVED',
    category: direct.category,
    components: [],
  };
}

/**
 * Whether the WABA may send by Direct Send, as Graph says of it (`direct_send_status`, an assumption the facts
 * leave open: ENABLED, NOT_ENABLED or BLOCKED). AUTHENTICATION is Meta's beta (access restricted): refused.
 * Refused with a named 422 before anything is reserved or queued; Graph unreadable, a 502.
 */
export async function checkDirectSend(deps: { directSend: DirectSendUpstream }, wabaId: string, direct: DirectSend) {
  if (direct.category === 'AUTHENTICATION')
    throw new Unprocessable(
      'Direct Send of AUTHENTICATION messages is in beta at Meta (access restricted): not offered',
      [{ path: 'category', message: 'must be UTILITY' }],
      'direct_send_authentication_beta',
    );
  let status: string | undefined;
  try {
    status = await deps.directSend.directSendStatusOf(wabaId);
  } catch {
    throw new UpstreamUnavailable('The template provider could not say whether the WABA may send by Direct Send');
  }
  if (upper(status) === 'BLOCKED')
    throw new Unprocessable(`${DIRECT_SEND_ERRORS['139200'].title} for WABA ${wabaId} (139200)`, undefined, 'direct_send_blocked');
  if (upper(status) !== 'ENABLED')
    throw new Unprocessable(`${DIRECT_SEND_NOT_ENABLED}: WABA ${wabaId} is not eligible`, undefined, 'direct_send_not_enabled');
}
