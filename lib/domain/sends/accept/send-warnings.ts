import { isImpossibleNumber, regionOf } from '../../money/pricing/region.ts';
import { recipientDigits } from '../../people/person.ts';
import type { SendingLimits } from '../../shared/ports.ts';
import { upper } from '../../shared/text.ts';
import type { MetaTemplate } from '../../templates/template-record.ts';
import { personKey } from '../dispatch/job.ts';
import type { SendDeps } from './send-deps.ts';

/** What a send is told before it goes (decisions §22): it is queued all the same. */
export interface SendWarning {
  code:
    | 'messaging_limit_exceeded'
    | 'number_quality_red'
    | 'template_quality_red'
    | 'budget_80_percent'
    | 'numbers_not_valid_for_region'
    | 'us_marketing_paused';
  message: string;
}

/**
 * Warnings of what Meta will not deliver: more unique recipients than the business portfolio may reach in 24
 * hours, or a marketing template from a number rated RED. Limits the upstream does not answer warn of nothing.
 */
export async function sendWarnings(
  deps: Pick<SendDeps, 'upstream'>,
  provider: { wabaId: string; phoneNumberId?: string },
  template: MetaTemplate,
  recipients: { to?: string; user_id?: string }[],
): Promise<SendWarning[]> {
  const limits = await deps.upstream.sendingLimits(provider.wabaId, provider.phoneNumberId).catch(() => ({}) as SendingLimits);
  const unique = new Set(recipients.map(personKey)).size;
  const warnings: SendWarning[] = [];
  if (limits.messagingLimit !== undefined && unique > limits.messagingLimit)
    warnings.push({
      code: 'messaging_limit_exceeded',
      message: `${unique} unique recipients exceed the business portfolio's messaging limit of ${limits.messagingLimit} in 24 hours: Meta will not deliver to the rest`,
    });
  if (upper(template.category) === 'MARKETING' && limits.quality === 'RED')
    warnings.push({
      code: 'number_quality_red',
      message: 'The sending number’s quality rating is RED: marketing messages from it may not be delivered',
    });
  // Meta's quality of the template itself (message_template_quality_update, decisions §25).
  if (upper(template.category) === 'MARKETING' && upper(template.quality_score?.score) === 'RED')
    warnings.push({
      code: 'template_quality_red',
      message: 'The template’s quality is RED: Meta may pause it, and its messages may not be delivered',
    });
  return warnings;
}

/** Positions a warning names at most. */
const NAMED = 20;

const positionsNamed = (positions: number[]) => `${positions.slice(0, NAMED).join(', ')}${positions.length > NAMED ? ', …' : ''}`;

/**
 * The warning of a MARKETING send to +1 numbers of a US area code (decisions §28): Meta sends no marketing
 * template there since 2025-04-01 (upstream-facts §9.C).
 */
export function usMarketingPaused(category: string | undefined, recipients: { index: number; to?: string }[]) {
  if (upper(category) !== 'MARKETING') return undefined;
  const positions = recipients
    .filter((r) => r.to !== undefined && recipientDigits(r.to).startsWith('1') && regionOf(recipientDigits(r.to)) === 'US')
    .map((r) => r.index);
  if (positions.length === 0) return undefined;
  return {
    code: 'us_marketing_paused' as const,
    message: `${positions.length} recipients are US numbers (positions ${positionsNamed(positions)}): Meta delivers no marketing template to a +1 number with a US area code`,
  };
}

/**
 * A dry run's warning for the recipients libphonenumber-js says cannot be numbers of their region (decisions §26):
 * a warning, never a refusal, since Meta has the last word on what it delivers.
 */
export function impossibleNumbers(
  recipients: { index: number; digits: string }[],
): { code: 'numbers_not_valid_for_region'; message: string } | undefined {
  const positions = recipients.filter((r) => isImpossibleNumber(r.digits)).map((r) => r.index);
  if (positions.length === 0) return undefined;
  return {
    code: 'numbers_not_valid_for_region' as const,
    message: `${positions.length} recipients are not valid numbers of their region by libphonenumber-js (positions ${positionsNamed(positions)}): Meta may not deliver to them`,
  };
}
