import type { Caller } from '../../shared/caller.ts';
import type { ErrorDetail } from '../../shared/errors.ts';
import { marketingApiOf } from '../marketing-messages.ts';
import { componentProblems, type FoundTemplate, findTemplate } from './find-template.ts';
import { peopleOfSend, type SendPeople } from './repeats-and-suppressed.ts';
import type { DryRunDeps } from './send-deps.ts';
import { type SendPrice, priceOfSend } from './send-estimate.ts';
import { type SendInput, type SendRecipient, scheduledAt } from './send-rules.ts';
import { type AbPlan, planAb } from './ab-plan.ts';
import { findVariants, recipientProblemsOf, variantComponentProblems } from './variants.ts';
import { upper } from '../../shared/text.ts';
import { type SendWarning, sendWarnings } from './send-warnings.ts';

/**
 * A send's acceptance and its dry run are one pipeline of steps (decisions §12): find the template, check the
 * request, choose the API, check the people, warn, estimate. The send goes on to reserve its budget, record
 * and queue (send.ts); the dry run stops here and answers what it found (dry-run.ts).
 */

/** The problems of a send's request: its recipients' against the template, and those of its own parts. */
export interface RequestProblems {
  recipients: ErrorDetail[];
  components: ErrorDetail[];
}

/** How the pipeline's caller judges its request: how many recipients' problems to find, and which refuse it. */
export interface Judgement {
  recipientProblems: number;
  /** Throws the refusal (a 400) when the problems found refuse the request. */
  refuse(problems: RequestProblems): void;
}

/** A send checked, its people found, warned of and priced: all its acceptance and its dry run share. */
export interface CheckedSend extends FoundTemplate {
  /** The time the send was accepted at, and its time when it is scheduled ahead. */
  now: string;
  sendAt?: string;
  api?: 'mm';
  recipientProblems: ErrorDetail[];
  people: SendPeople;
  /** An A/B send's variants and each recipient's (decisions §33). */
  ab?: AbPlan;
  warnings: SendWarning[];
  price: SendPrice;
}

/** The request the pipeline checks: its path's did, its body, and the recipients to check (a dry run's, positioned apart). */
export interface SendRequest {
  pathDid: string;
  body: Omit<SendInput, 'recipients'>;
  recipients: SendRecipient[];
}

/** Every step of a send before anything is recorded, reserved or queued. */
export async function checkSend(deps: DryRunDeps, caller: Caller, request: SendRequest, judgement: Judgement): Promise<CheckedSend> {
  const { body, recipients } = request;
  const now = deps.now?.() ?? new Date().toISOString();
  const nowMs = Date.parse(now);
  const found = body.variants
    ? await findVariants(deps, caller, request.pathDid, body)
    : await findTemplate(deps, caller, request.pathDid, body);
  const problems = {
    recipients: recipientProblemsOf(found, recipients, judgement.recipientProblems),
    components: await variantComponentProblems(found, body, (needs) => componentProblems(deps, needs, body, nowMs)),
  };
  judgement.refuse(problems);
  const api = await marketingApiOf(deps, found.provider.wabaId, found.template.category, body, nowMs);
  const people = await peopleOfSend(deps, found, recipients, body.allow_duplicates === true);
  // An A/B send (decisions §33): each person's variant, by the pairs the people were found with.
  const ab = planAb(found, people.recipients, people.pairs, body.test);
  const warnings = await sendWarnings(deps, found.provider, worstTemplate(found), recipients);
  const sendAt = scheduledAt(body.send_at, nowMs);
  // The client's price list on the day the send goes: its estimate (and a send's reservation) are in its price.
  const price = await priceOfSend(deps, found, recipients, { now, goes: sendAt ?? now }, body.max_price);
  return {
    ...found,
    now,
    ...(sendAt && { sendAt }),
    ...(api && { api }),
    recipientProblems: problems.recipients,
    people,
    ...(ab && { ab }),
    warnings,
    price,
  };
}

/** The template a send is warned of: an A/B send's variant whose quality is RED, where one is (decisions §25, §33). */
const worstTemplate = (found: FoundTemplate) =>
  found.variants?.map((v) => v.template).find((t) => upper(t.quality_score?.score) === 'RED') ?? found.template;
