import type { Person } from '../../people/person.ts';
import type { AbVariant, TestRequest } from '../ab/ab-send.ts';
import { abPersonKey, inTestShare, seedOf, variantOf } from '../ab/variant-hash.ts';
import type { JobRecipient } from '../dispatch-job.ts';
import { isSendable } from '../dispatch/job.ts';
import type { FoundTemplate } from './find-template.ts';

/**
 * Each recipient's variant of an A/B send (decisions §33, docs/ab-sends.md), found when the send is accepted (and
 * by its dry run): the hash of the person (variant-hash.ts) onto the weights. A test-first send gives a variant
 * only to its test share; the rest waits for the decision. A resend's recipient keeps the variant its message went
 * with, and a resend never tests. The send lays its recipients out variant by variant, the rest last, so each job
 * sends one template (its variant's) and the rest's jobs are apart, held for the decision.
 */

/** The rest of a test-first send: no variant until the decision. */
export const REST = 'rest';
type Group = number | typeof REST;

/** What an A/B send's acceptance makes of its recipients. */
export interface AbPlan {
  seed: string;
  /** Each variant with its recipients counted (a test's: its test share's). */
  variants: AbVariant[];
  test?: TestRequest & { test_recipients: number; rest_recipients: number };
  /** Each position's group: its variant, or the test's rest. A repeat goes with its first, a suppressed one by its hash. */
  groups: Group[];
}

/** Each recipient's group; undefined: not an A/B send. */
export function planAb(found: FoundTemplate, recipients: JobRecipient[], pairs?: Map<string, Person>, test?: TestRequest) {
  if (!found.variants) return undefined;
  const named = found.variants.map((v) => ({ name: v.template.name, language: v.template.language, weight: v.weight }));
  const seed = seedOf(found.clientId, named);
  const counts = named.map(() => 0);
  let rest = 0;
  const groups: Group[] = [];
  for (const r of recipients) {
    const person = abPersonKey(r, pairs);
    let group: Group;
    if (r.duplicate_of !== undefined) group = groups[r.duplicate_of] ?? variantOf(seed, person, named);
    // A resend's recipient (its variant given): the variant its message went with.
    else if (r.variant !== undefined) group = r.variant;
    else if (test && isSendable(r) && !inTestShare(seed, person, test.share)) group = REST;
    else group = variantOf(seed, person, named);
    if (isSendable(r) && group === REST) rest += 1;
    else if (isSendable(r)) counts[group as number] += 1;
    groups.push(group);
  }
  const variants = found.variants.map(
    (v, i): AbVariant => ({
      name: v.template.name,
      language: v.template.language,
      template_id: String(v.template.id),
      weight: v.weight,
      recipients: counts[i],
      ...(v.params && { params: v.params }),
    }),
  );
  const tested = counts.reduce((sum, n) => sum + n, 0);
  return { seed, variants, groups, ...(test && { test: { ...test, test_recipients: tested, rest_recipients: rest } }) };
}

/** One part of a send's layout: its recipients and their variant (absent: not an A/B send; `rest`: a test's rest). */
export interface LayoutPart {
  variant?: Group;
  recipients: JobRecipient[];
}

/**
 * The recipients as the send lays them out: as asked for a send of one template; an A/B send's variant by variant
 * (each in the order asked), a test's rest last, with `asked` saying each position's place in the request.
 */
export function layoutOf(plan: AbPlan | undefined, recipients: JobRecipient[]): { parts: LayoutPart[]; asked?: number[] } {
  if (!plan) return { parts: [{ recipients }] };
  const order: Group[] = [...plan.variants.map((_, i) => i), REST];
  const parts = order.flatMap((group) => {
    const positions = plan.groups.flatMap((g, i) => (g === group ? [i] : []));
    return positions.length > 0 ? [{ variant: group, positions }] : [];
  });
  const asked = parts.flatMap((part) => part.positions);
  // The variant is the job's (decisions §33): a recipient carries none.
  const bare = ({ variant: _variant, ...r }: JobRecipient) => r;
  return { parts: parts.map((part) => ({ variant: part.variant, recipients: part.positions.map((i) => bare(recipients[i])) })), asked };
}
