import type { Caller } from '../../shared/caller.ts';
import { type ErrorDetail, InvalidRequest, NotFound, Unprocessable, UpstreamRejected, UpstreamUnavailable } from '../../shared/errors.ts';
import { reserveBudget } from '../../money/budget.ts';
import { rateCards } from '../../money/pricing/cards/index.ts';
import { type Estimate, estimateOf, inClientPrice } from '../../money/pricing/estimate.ts';
import { listInForce } from '../../money/pricing/price-list.ts';
import { BASE_CURRENCY, dayOf } from '../../money/pricing/rate-card.ts';
import { recipientEstimate, reservationFor } from '../../money/pricing/reservation.ts';
import type { DispatchJob, SendHeader } from '../dispatch-job.ts';
import { isSendable, markRepeats, markSuppressed, personKey } from '../dispatch/job.ts';
import { recipientDigits } from '../../people/person.ts';
import { bsuidRefusals, impossibleNumbers, knownPairs, marketingApiOf, suppressedAmong, usMarketingPaused } from '../send-people.ts';
import { identityScopeOf } from '../../people/people-map.ts';

export type { ProductAction, RecipientParams, SendHeader } from '../dispatch-job.ts';
import type { DirectoryStore } from '../../shared/ports.ts';
import type { SendScheduler, SendRecords, SendRequestOptions, RecipientLists, HeldJobs } from '../ports.ts';
import type { JobQueue } from '../../shared/ports.ts';
import type { SendingLimits } from '../../shared/ports.ts';
import type { BudgetStore, PriceLists } from '../../money/ports.ts';
import type { IdentityMap, SuppressionStore } from '../../people/ports.ts';
import type { TemplateListing } from '../../templates/ports.ts';
import type { BillingCurrencies } from '../../money/ports.ts';
import type { MarketingOnboardings, MarketingUpstream } from '../ports.ts';
import type { TemplateUpstream } from '../../templates/ports.ts';
import { resolveProvider } from '../../shared/provider.ts';
import { NO_COUNTS } from '../send-status.ts';
import type { MetaTemplate } from '../../templates/template-record.ts';
import { checkRecipients, HEADER_TYPES, type SendRecipient, scheduledAt, sendAtProblems, templateNeeds } from './send-rules.ts';
import { upper } from '../../shared/text.ts';
import { bytesOf, JOB_BYTES, queueAllOrNothing, splitJobs } from './send-jobs.ts';
import { actingClient } from '../../shared/tenancy.ts';
import { checkPublicHttpsUrl, type Resolver } from '../../shared/url-guard.ts';

/** POST /v1/template/messages/{did} (spec §1, decisions §5): the body as the request schema delivers it. */
export interface SendInput {
  did: string;
  type: 'template';
  channel: 'MSGCHAN';
  template: { name: string; language: string };
  recipients: SendRecipient[];
  campaignId?: number;
  client_id?: number;
  attends?: { waitTime?: number; typification?: number };
  message_send_ttl_seconds?: number;
  allow_duplicates?: boolean;
  component?: { header: SendHeader };
  /** RFC 3339: when to send (decisions §22); absent, at once. */
  send_at?: string;
  /** Which API a MARKETING send goes through, and its time to live there (decisions §28). */
  marketing_api?: 'auto' | 'cloud' | 'mm';
  ttl_seconds?: number;
}

export interface SendDeps {
  directory: DirectoryStore;
  listing: TemplateListing;
  sends: SendRecords;
  recipientLists: RecipientLists;
  heldJobs: HeldJobs;
  budgets: BudgetStore;
  suppressions: SuppressionStore;
  /** Who is who (decisions §28): repeats are found per person, and a MARKETING send skips either half of a known
   * pair that is suppressed. */
  identities?: IdentityMap;
  upstream: TemplateUpstream;
  queue: JobQueue;
  resolve: Resolver;
  scheduler: SendScheduler;
  /** Each client's price lists: estimates and reservations are in the client's price (decisions §27). */
  priceLists?: Pick<PriceLists, 'lists'>;
  /** Each WABA's billing currency: estimates are in it (decisions §26). */
  currencies?: BillingCurrencies;
  /** Each WABA's onboarding to the Marketing Messages API (decisions §28), kept and as Graph reports it. */
  onboardings?: MarketingOnboardings;
  marketing?: MarketingUpstream;
  now?: () => string;
}

/**
 * The template a send names: the client's synced record of it (no upstream call), else the upstream's (a
 * template the client has no record of yet). Returns whether the campaign is one of the record's.
 */
async function templateToSend(
  deps: SendDeps,
  clientId: number,
  wabaId: string,
  body: Pick<SendInput, 'template'>,
): Promise<{ found: MetaTemplate | null; campaigns: number[] }> {
  const entry = await deps.listing.templateEntry(clientId, wabaId, body.template.name, body.template.language);
  if (entry) {
    const campaigns = entry.entry.channel_campaigns.map((group) => group.campaign_id);
    return { found: entry.entry.meta_template as MetaTemplate, campaigns };
  }
  try {
    return { found: await deps.upstream.findTemplate(wabaId, body.template.name, body.template.language), campaigns: [] };
  } catch (error) {
    // A refused lookup is the provider's problem, not the caller's: both are 502.
    if (error instanceof UpstreamRejected) throw new UpstreamUnavailable('The template provider refused the lookup');
    throw error;
  }
}

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
async function sendWarnings(
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

/** What a send resolves before it queues anything: the acting client, the number, the template and its needs. */
async function resolveSend(deps: SendDeps, caller: Caller, pathDid: string, body: Omit<SendInput, 'recipients'>) {
  if (body.did !== pathDid)
    throw new Unprocessable('The path did differs from the body did', [{ path: 'did', message: `must equal the path did ${pathDid}` }]);
  const clientId = actingClient(caller, body.client_id);
  const provider = await resolveProvider(deps, clientId, body.did);

  const { found, campaigns } = await templateToSend(deps, clientId, provider.wabaId, body);
  if (!found) throw new NotFound(`Template ${body.template.name} (${body.template.language}) does not exist`);
  if (found.status !== 'APPROVED') throw new Unprocessable(`Template is ${found.status}; only APPROVED templates can be sent`);
  if (upper(found.parameter_format) === 'NAMED') throw new Unprocessable('Templates with named parameters cannot be sent');

  const needs = templateNeeds(found);
  const problems: ErrorDetail[] = [];
  const headerType = needs.headerFormat ? HEADER_TYPES[needs.headerFormat] : undefined;
  const header = body.component?.header;
  if (headerType && !header)
    problems.push({ path: 'component.header', message: `is required: the template has a ${needs.headerFormat} header` });
  if (header && !headerType) problems.push({ path: 'component.header', message: 'the template has no media or location header' });
  if (header && headerType && header.type !== headerType)
    problems.push({ path: 'component.header.type', message: `must be ${headerType}` });
  if (header && 'value' in header) {
    const check = await checkPublicHttpsUrl(header.value, deps.resolve, { allowUnresolved: true });
    if (!check.ok) problems.push({ path: 'component.header.value', message: 'must be a public https URL' });
  }
  problems.push(...sendAtProblems(body.send_at, Date.parse(deps.now?.() ?? new Date().toISOString())));
  const warning =
    body.campaignId !== undefined && !campaigns.includes(body.campaignId)
      ? `campaign ${body.campaignId} is not assigned to this template for client ${clientId}`
      : undefined;
  return { clientId, provider, found, needs, componentProblems: problems, warning };
}

export async function sendTemplate(
  deps: SendDeps,
  caller: Caller,
  input: { pathDid: string; body: SendInput; sendId: string; resendOf?: string },
) {
  const { body } = input;
  const { clientId, provider, found, needs, componentProblems, warning } = await resolveSend(deps, caller, input.pathDid, body);
  const problems = [...checkRecipients(needs, body.recipients), ...componentProblems];
  if (problems.length > 0) throw new InvalidRequest('Recipients or components do not match the template', problems);
  const warnings = await sendWarnings(deps, provider, found, body.recipients);

  const createdAt = deps.now?.() ?? new Date().toISOString();
  const api = await marketingApiOf(deps, provider.wabaId, found.category, body, Date.parse(createdAt));
  const sendAt = scheduledAt(body.send_at, Date.parse(createdAt));
  // The client's price list on the day the send goes: its estimate and reservation are in the client's price.
  const priceList = listInForce((await deps.priceLists?.lists(clientId)) ?? [], (sendAt ?? createdAt).slice(0, 10));
  const reservation = reservationFor(found.category, sendAt ?? createdAt, BASE_CURRENCY, priceList);
  // Calculated here, never sent by callers: namespace, the template's components, the contact count.
  const common: Omit<DispatchJob, 'job' | 'jobs' | 'first_index' | 'recipients'> = {
    send_id: input.sendId,
    client_id: clientId,
    did: body.did,
    waba_id: provider.wabaId,
    phone_number_id: provider.phoneNumberId,
    namespace: provider.namespace,
    channel: body.channel,
    template: { name: found.name, language: found.language, id: String(found.id), category: found.category, components: found.components },
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
    ...(api && { marketing_api: api }),
    reservation,
  };
  // Repeats are found here, over the whole list (decisions §12): each job knows its repeats and sends none; so
  // are a MARKETING send's suppressed recipients (decisions §25).
  const pairs = await knownPairs(deps, await identityScopeOf(provider.wabaId, deps.directory), body.recipients);
  const marked = markRepeats(body.recipients, body.allow_duplicates === true, pairs);
  const repeats = marked.repeats;
  const { recipients, count: suppressedCount } = markSuppressed(
    marked.recipients,
    await suppressedAmong(deps, clientId, provider.wabaId, found.category, marked.recipients, pairs),
  );
  // Each job carries the common part too: it counts against the job's bytes.
  const jobs = splitJobs(recipients, JOB_BYTES - bytesOf({ ...common, job: 0, jobs: 0, first_index: 0, recipients: [] }));
  let firstIndex = 0;
  const dispatchJobs = jobs.map((recipients, i): DispatchJob => {
    const job = { ...common, job: i + 1, jobs: jobs.length, first_index: firstIndex, recipients };
    firstIndex += recipients.length;
    return job;
  });
  const digits = body.recipients.map(personKey);
  const estimate = inClientPrice(
    estimateOf(rateCards, digits, found.category, Date.parse(createdAt), await billingCurrency(deps, provider.wabaId)),
    priceList,
    found.category,
    Date.parse(createdAt),
  );
  // Each recipient to be sent is reserved for the month the send goes in, in the budget's currency, before
  // anything is recorded; each gives its part back as it settles (decisions §27).
  const reserved = recipients.filter(isSendable).reduce((sum, r) => sum + recipientEstimate(reservation, personKey(r)), 0);
  const budget = await reserveBudget(deps, clientId, reserved, reservation.month);
  if (budget.warning) warnings.push(budget.warning);
  try {
    await queueAllOrNothing(
      deps,
      {
        send_id: input.sendId,
        client_id: clientId,
        did: body.did,
        template: { name: found.name, language: found.language },
        ...(body.campaignId !== undefined && { campaignId: body.campaignId }),
        status: 'queuing',
        currency: estimate.cost?.currency ?? estimate.currency,
        reservation,
        ...(priceList && { price_list: { effective_from: priceList.effective_from, currency: priceList.currency } }),
        created_at: createdAt,
        ...(sendAt && { send_at: sendAt }),
        total: body.recipients.length,
        jobs: jobs.length,
        counts: { ...NO_COUNTS, duplicates_removed: repeats, suppressed: suppressedCount },
        job_firsts: dispatchJobs.map((job) => job.first_index),
        request: requestOptionsOf(body),
        ...(input.resendOf && { resend_of: input.resendOf }),
      },
      dispatchJobs,
    );
  } catch (error) {
    // Not queued: what it reserved goes back (a release that fails leaves the month over-reserved, never under).
    await budget.release().catch(() => undefined);
    throw error;
  }
  return {
    success: true as const,
    send_id: input.sendId,
    ...(sendAt && { status: 'scheduled' as const }),
    ...(warning && { warning }),
    ...(warnings.length > 0 && { warnings }),
    estimate: shownEstimate(estimate, caller),
  };
}

/** What of a send's request a resend of it repeats (decisions §25): the header and the caller's options. */
function requestOptionsOf(body: SendInput): SendRequestOptions {
  return {
    ...(body.component && { component: body.component }),
    ...(body.attends && { attends: body.attends }),
    ...(body.message_send_ttl_seconds !== undefined && { message_send_ttl_seconds: body.message_send_ttl_seconds }),
    ...(body.allow_duplicates !== undefined && { allow_duplicates: body.allow_duplicates }),
    ...(body.marketing_api !== undefined && { marketing_api: body.marketing_api }),
    ...(body.ttl_seconds !== undefined && { ttl_seconds: body.ttl_seconds }),
  };
}

/**
 * The WABA's billing currency for an estimate (decisions §26): the base currency when it cannot be read now
 * (an estimate never stops a send; the charges are priced in the WABA's currency when Meta reports them).
 */
const billingCurrency = async (deps: Pick<SendDeps, 'currencies'>, wabaId: string) =>
  (await deps.currencies?.currencyOf(wabaId).catch(() => undefined)) ?? BASE_CURRENCY;

/** The estimate as answered: its micro-units are the budget's, not the caller's; Meta's cost is BSP_CN's alone. */
const shownEstimate = ({ micros: _micros, cost, ...shown }: Estimate, caller: Caller) => ({
  ...shown,
  ...(cost && caller.isBsp && { cost }),
});

/** A recipient the request's schema refused, by its position in the request (a dry run reports it). */
export interface RecipientProblem {
  index: number;
  path: string;
  message: string;
}

/**
 * `?dry_run=true` (decisions §12): every check of a send, nothing queued. The recipients the schema accepted
 * come with their positions; the ones it refused come as problems. Tenancy and template errors throw as for a
 * real send; every failing recipient is reported, not only the first ones.
 */
export async function dryRunSend(
  deps: Omit<SendDeps, 'sends' | 'recipientLists' | 'heldJobs' | 'queue' | 'budgets'>,
  caller: Caller,
  input: {
    pathDid: string;
    body: Omit<SendInput, 'recipients'>;
    recipients: { index: number; recipient: SendInput['recipients'][number] }[];
    refused: RecipientProblem[];
    total: number;
  },
) {
  const {
    needs,
    componentProblems,
    provider,
    found: template,
    clientId,
  } = await resolveSend(deps as SendDeps, caller, input.pathDid, input.body);
  if (componentProblems.length > 0) throw new InvalidRequest('Components do not match the template', componentProblems);
  const invalid: (RecipientProblem & { code?: string })[] = [...input.refused];
  const found = checkRecipients(
    needs,
    input.recipients.map((r) => r.recipient),
    Number.POSITIVE_INFINITY,
  );
  for (const problem of found) {
    const match = /^recipients\[(\d+)\](.*)$/.exec(problem.path);
    const at = input.recipients[Number(match?.[1])];
    invalid.push({ index: at.index, path: `recipients[${at.index}]${match?.[2] ?? ''}`, message: problem.message });
  }
  invalid.push(
    ...bsuidRefusals(
      template,
      input.recipients.map((r) => ({ index: r.index, ...r.recipient })),
    ),
  );
  invalid.sort((a, b) => a.index - b.index);
  const invalidCount = new Set(invalid.map((problem) => problem.index)).size;
  const now = Date.parse(deps.now?.() ?? new Date().toISOString());
  await marketingApiOf(deps, provider.wabaId, template.category, input.body, now);
  const pairs = await knownPairs(
    deps,
    await identityScopeOf(provider.wabaId, deps.directory),
    input.recipients.map((r) => r.recipient),
  );
  const people = markRepeats(
    input.recipients.map((r) => r.recipient),
    input.body.allow_duplicates === true,
    pairs,
  ).recipients;
  const skipped = await suppressedAmong(deps as SendDeps, clientId, provider.wabaId, template.category, people, pairs);
  const suppressed = input.recipients
    .filter((_, i) => skipped.has(i))
    .map((r) => ({
      index: r.index,
      ...(r.recipient.to !== undefined && { to: r.recipient.to }),
      ...(r.recipient.user_id && { user_id: r.recipient.user_id }),
    }));
  const warnings = await sendWarnings(
    deps,
    provider,
    template,
    input.recipients.map((r) => r.recipient),
  );
  const unplaceable = impossibleNumbers(
    input.recipients.flatMap((r) => (r.recipient.to === undefined ? [] : [{ index: r.index, digits: recipientDigits(r.recipient.to) }])),
  );
  if (unplaceable) warnings.push(unplaceable);
  const paused = usMarketingPaused(
    template.category,
    input.recipients.map((r) => ({ index: r.index, to: r.recipient.to })),
  );
  if (paused) warnings.push(paused);
  return {
    success: invalid.length === 0,
    dry_run: true as const,
    total: input.total,
    valid: input.total - invalidCount,
    invalid,
    ...(warnings.length > 0 && { warnings }),
    // Who a MARKETING send would skip (decisions §25), by position.
    ...(suppressed.length > 0 && { suppressed }),
    estimate: shownEstimate(
      inClientPrice(
        estimateOf(
          rateCards,
          input.recipients.map((r) => personKey(r.recipient)),
          template.category,
          now,
          await billingCurrency(deps, provider.wabaId),
        ),
        listInForce((await deps.priceLists?.lists(clientId)) ?? [], dayOf(now)),
        template.category,
        now,
      ),
      caller,
    ),
  };
}
