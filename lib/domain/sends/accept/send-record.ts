import type { SendReservation } from '../../money/pricing/reservation.ts';
import type { DispatchJob, JobVariant } from '../dispatch-job.ts';
import type { SendRecord, SendRequestOptions } from '../ports.ts';
import { NO_COUNTS } from '../send-status.ts';
import type { JobCommon } from './send-jobs.ts';
import type { CheckedSend } from './send-pipeline.ts';
import type { AbPlan } from './ab-plan.ts';
import type { AbSend } from '../ab/ab-send.ts';
import type { MetaTemplate } from '../../templates/template-record.ts';
import type { SendInput } from './send-rules.ts';

/** What an accepted send records: the part every one of its jobs carries, and its own record (decisions §12, §22). */

/** The part of a send every job carries, calculated here, never sent by callers: namespace, components, count. */
export function jobCommonOf(checked: CheckedSend, body: SendInput, sendId: string, reservation: SendReservation): JobCommon {
  const { provider, template } = checked;
  return {
    send_id: sendId,
    client_id: checked.clientId,
    did: body.did,
    waba_id: provider.wabaId,
    phone_number_id: provider.phoneNumberId,
    namespace: provider.namespace,
    channel: body.channel,
    template: jobTemplateOf(template),
    total_contacts: body.recipients.length,
    ...(body.component && { component: body.component }),
    ...(body.attends && { attends: { ...body.attends, waitTime: body.attends.waitTime ?? 0 } }),
    ...(body.allow_duplicates !== undefined && { allow_duplicates: body.allow_duplicates }),
    ...(body.message_send_ttl_seconds !== undefined && { message_send_ttl_seconds: body.message_send_ttl_seconds }),
    // A marketing TTL (decisions §28): nothing is sent after it.
    ...(body.ttl_seconds !== undefined && {
      message_send_ttl_seconds: Math.min(body.ttl_seconds, body.message_send_ttl_seconds ?? body.ttl_seconds),
    }),
    ...(body.campaignId !== undefined && { campaignId: body.campaignId }),
    ...(checked.api && { marketing_api: checked.api }),
    ...(checked.direct && { direct: checked.direct }),
    // A max price (decisions §34), only ever through the Marketing Messages API (marketing-messages.ts).
    ...(checked.api && body.max_price && { max_price: body.max_price }),
    // The client's frequency cap as it is now (decisions §33): its messages take their places under it as they go.
    ...(checked.people.cap && { frequency_cap: checked.people.cap }),
    reservation,
    // Its figures count on its WABA's days (decisions §33): the dispatcher dates them without reading Graph.
    zone: checked.price.zone,
  };
}

/** A template as a job carries it: what the dispatcher needs of it, resolved at acceptance. */
const jobTemplateOf = (template: MetaTemplate) => ({
  name: template.name,
  language: template.language,
  id: String(template.id),
  category: template.category,
  components: template.components,
});

/** An A/B send's variants as its jobs carry them (decisions §33): each one's template and own values. */
export const jobVariantsOf = (checked: CheckedSend): JobVariant[] | undefined =>
  checked.variants?.map((v) => ({ template: jobTemplateOf(v.template), ...(v.params && { params: v.params }) }));

/** What of a send's request a resend of it repeats (decisions §25): the header and the caller's options. */
function requestOptionsOf(body: SendInput): SendRequestOptions {
  return {
    ...(body.component && { component: body.component }),
    ...(body.attends && { attends: body.attends }),
    ...(body.message_send_ttl_seconds !== undefined && { message_send_ttl_seconds: body.message_send_ttl_seconds }),
    ...(body.allow_duplicates !== undefined && { allow_duplicates: body.allow_duplicates }),
    ...(body.marketing_api !== undefined && { marketing_api: body.marketing_api }),
    ...(body.ttl_seconds !== undefined && { ttl_seconds: body.ttl_seconds }),
    ...(body.category !== undefined && { category: body.category }),
    ...(body.message !== undefined && { message: body.message }),
    ...(body.max_price !== undefined && { max_price: body.max_price }),
  };
}

/** The send's record as it begins, `queuing`: its counts start with the repeats and suppressed found. */
export function sendRecordOf(
  checked: CheckedSend,
  input: { body: SendInput; sendId: string; resendOf?: string },
  reservation: SendReservation,
  jobs: DispatchJob[],
): SendRecord {
  const { body } = input;
  const { estimate, priceList } = checked.price;
  return {
    send_id: input.sendId,
    client_id: checked.clientId,
    did: body.did,
    template: { name: checked.template.name, language: checked.template.language },
    ...(body.campaignId !== undefined && { campaignId: body.campaignId }),
    status: 'queuing',
    currency: estimate.cost?.currency ?? estimate.currency,
    reservation,
    ...(priceList && { price_list: { effective_from: priceList.effective_from, currency: priceList.currency } }),
    created_at: checked.now,
    ...(checked.sendAt && { send_at: checked.sendAt }),
    total: body.recipients.length,
    jobs: jobs.length,
    counts: { ...NO_COUNTS, duplicates_removed: checked.people.repeats, suppressed: checked.people.suppressedCount },
    job_firsts: jobs.map((job) => job.first_index),
    request: requestOptionsOf(body),
    ...(input.resendOf && { resend_of: input.resendOf }),
    ...(checked.ab && { ab: abRecordOf(checked, checked.ab, jobs) }),
  };
}

/**
 * An A/B send's part of its record (decisions §33): its seed and variants; a test's wait, its split, where its rest
 * begins, and when it is decided: the send's time (its `send_at`, else now) plus the wait.
 */
function abRecordOf(checked: CheckedSend, plan: AbPlan, jobs: DispatchJob[]): AbSend {
  const { test } = plan;
  if (!test) return { seed: plan.seed, variants: plan.variants };
  const restJob = jobs.findIndex((job) => job.variants !== undefined) + 1;
  const restFirst = restJob > 0 ? jobs[restJob - 1].first_index : checked.people.recipients.length;
  const decideAt = new Date(Date.parse(checked.sendAt ?? checked.now) + test.wait_seconds * 1000).toISOString();
  return {
    seed: plan.seed,
    variants: plan.variants,
    test: { ...test, decide_at: decideAt, rest_first: restFirst, rest_job: restJob > 0 ? restJob : jobs.length + 1 },
  };
}
