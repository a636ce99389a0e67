import { BSUID_REFUSED, BSUID_REFUSED_TITLE, isBsuidOnly, refusesBsuid } from '../../people/bsuid-refusals.ts';
import { recipientDigits } from '../../people/person.ts';
import type { Caller } from '../../shared/caller.ts';
import { InvalidRequest } from '../../shared/errors.ts';
import type { DryRunDeps } from './send-deps.ts';
import { shownEstimate } from './send-estimate.ts';
import { type CheckedSend, checkSend, type Judgement } from './send-pipeline.ts';
import type { SendInput, SendRecipient } from './send-rules.ts';
import { impossibleNumbers, usMarketingPaused } from './send-warnings.ts';
import type { abShown } from '../ab/ab-view.ts';

/**
 * `?dry_run=true` (decisions §12): a send's pipeline (send-pipeline.ts) stopped before it reserves, records or
 * queues anything. The recipients the schema accepted come with their positions; the ones it refused come as
 * problems. Tenancy, template and component errors throw as for a real send; every failing recipient is
 * reported, not only the first ones.
 */

/** A recipient the request's schema refused, by its position in the request (a dry run reports it). */
export interface RecipientProblem {
  index: number;
  path: string;
  message: string;
}

type Positioned = { index: number; recipient: SendRecipient };

/** A dry run refuses its components' problems (a 400, as a send does); its recipients' problems are its answer. */
const reportRecipients: Judgement = {
  recipientProblems: Number.POSITIVE_INFINITY,
  refuse: ({ components }) => {
    if (components.length > 0) throw new InvalidRequest('Components do not match the template', components);
  },
};

/** The problems of the recipients Meta would refuse (131062), by position. */
function bsuidRefusals(template: { category?: string; components: unknown[] }, recipients: Positioned[]) {
  if (!refusesBsuid(template)) return [];
  return recipients
    .filter((r) => isBsuidOnly(r.recipient))
    .map((r) => ({
      index: r.index,
      path: `recipients[${r.index}].user_id`,
      message: `${BSUID_REFUSED}: ${BSUID_REFUSED_TITLE}`,
      code: BSUID_REFUSED,
    }));
}

/** Every invalid recipient by its position in the request: the schema's, the template's, Meta's refusals. */
function invalidRecipients(checked: CheckedSend, recipients: Positioned[], refused: RecipientProblem[]) {
  const invalid: (RecipientProblem & { code?: string })[] = [...refused];
  for (const problem of checked.recipientProblems) {
    const match = /^recipients\[(\d+)\](.*)$/.exec(problem.path);
    const at = recipients[Number(match?.[1])];
    invalid.push({ index: at.index, path: `recipients[${at.index}]${match?.[2] ?? ''}`, message: problem.message });
  }
  invalid.push(...bsuidRefusals(checked.template, recipients));
  return invalid.sort((a, b) => a.index - b.index);
}

/** Who a MARKETING send would skip as suppressed (decisions §25), by position. */
const suppressedOf = (checked: CheckedSend, recipients: Positioned[]) =>
  recipients
    .filter((_, i) => checked.people.suppressed.has(i))
    .map((r) => ({
      index: r.index,
      ...(r.recipient.to !== undefined && { to: r.recipient.to }),
      ...(r.recipient.user_id && { user_id: r.recipient.user_id }),
    }));

/**
 * Who a MARKETING send under its client's frequency cap would skip now (decisions §33), by position: each person
 * whose count already holds the cap's `max` (its number's and its BSUID's together). A prediction: the dispatcher
 * decides at each launch, so a message sent meanwhile may skip one more.
 */
async function cappedOf(deps: DryRunDeps, checked: CheckedSend, recipients: Positioned[]) {
  const { cap } = checked.people;
  if (!cap) return [];
  const capped = checked.people.recipients.flatMap((r, i) => (r.cap_keys ? [{ i, keys: r.cap_keys }] : []));
  const counted = await deps.marketingCounts.counted(
    checked.clientId,
    capped.map((c) => c.keys),
    cap,
    Date.parse(checked.now),
  );
  return capped
    .filter((_, k) => counted[k] >= cap.max)
    .map(({ i }) => recipients[i])
    .map((r) => ({
      index: r.index,
      ...(r.recipient.to !== undefined && { to: r.recipient.to }),
      ...(r.recipient.user_id && { user_id: r.recipient.user_id }),
    }));
}

/** The send's warnings, then a dry run's own: numbers not of their region, US numbers of a MARKETING send. */
function dryRunWarnings(checked: CheckedSend, recipients: Positioned[]) {
  const numbers = recipients.flatMap((r) => (r.recipient.to === undefined ? [] : [{ index: r.index, to: r.recipient.to }]));
  const unplaceable = impossibleNumbers(numbers.map((r) => ({ index: r.index, digits: recipientDigits(r.to) })));
  const paused = usMarketingPaused(
    checked.template.category,
    recipients.map((r) => ({ index: r.index, to: r.recipient.to })),
  );
  return [...checked.warnings, ...(unplaceable ? [unplaceable] : []), ...(paused ? [paused] : [])];
}

export async function dryRunSend(
  deps: DryRunDeps,
  caller: Caller,
  input: { pathDid: string; body: Omit<SendInput, 'recipients'>; recipients: Positioned[]; refused: RecipientProblem[]; total: number },
) {
  const recipients = input.recipients.map((r) => r.recipient);
  const checked = await checkSend(deps, caller, { pathDid: input.pathDid, body: input.body, recipients }, reportRecipients);
  const invalid = invalidRecipients(checked, input.recipients, input.refused);
  const suppressed = suppressedOf(checked, input.recipients);
  const capped = await cappedOf(deps, checked, input.recipients);
  const warnings = dryRunWarnings(checked, input.recipients);
  return {
    success: invalid.length === 0,
    dry_run: true as const,
    total: input.total,
    valid: input.total - new Set(invalid.map((problem) => problem.index)).size,
    invalid,
    ...(warnings.length > 0 && { warnings }),
    ...(suppressed.length > 0 && { suppressed }),
    ...(capped.length > 0 && { capped_by_rule: capped }),
    estimate: shownEstimate(checked.price.estimate, caller),
    ...splitOf(checked),
  };
}

/** An A/B send's split (decisions §33): how many recipients each variant would have, and a test's share and rest. */
function splitOf({ ab }: CheckedSend): {
  variants?: ReturnType<typeof abShown>['variants'];
  test?: { test_recipients: number; rest_recipients: number };
} {
  if (!ab) return {};
  return {
    variants: ab.variants.map((v) => ({ template: { name: v.name, language: v.language }, weight: v.weight, recipients: v.recipients })),
    ...(ab.test && { test: { test_recipients: ab.test.test_recipients, rest_recipients: ab.test.rest_recipients } }),
  };
}
