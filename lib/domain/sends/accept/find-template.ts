import type { Caller } from '../../shared/caller.ts';
import { type ErrorDetail, InvalidRequest, NotFound, Unprocessable, UpstreamRejected, UpstreamUnavailable } from '../../shared/errors.ts';
import { type ProviderConfig, resolveProvider } from '../../shared/provider.ts';
import { actingClient } from '../../shared/tenancy.ts';
import { upper } from '../../shared/text.ts';
import { checkPublicHttpsUrl } from '../../shared/url-guard.ts';
import type { MetaTemplate } from '../../templates/template-record.ts';
import type { DryRunDeps } from './send-deps.ts';
import { checkDirectSend, type DirectSend, directTemplate } from '../direct-send.ts';
import type { RecipientParams } from '../dispatch-job.ts';
import { HEADER_TYPES, type SendInput, sendAtProblems, type TemplateNeeds, templateNeeds } from './send-rules.ts';

/** A send's first steps (decisions §5, §22): who sends, from which number, which template, and its header. */

/** The template a send goes with, found for its acting client and number. */
export interface FoundTemplate {
  clientId: number;
  provider: ProviderConfig;
  template: MetaTemplate;
  needs: TemplateNeeds;
  /** The campaign named is not one of the template's: the send goes, and is told so. */
  campaignWarning?: string;
  /** A Direct Send (issue 55 item 2): its category and message, sent instead of a template's. */
  direct?: DirectSend;
  /** An A/B send (decisions §33): every variant in the request's order; `template` and `needs` are the first's. */
  variants?: FoundVariant[];
}

/** An A/B send's variant found (decisions §33): its template, what it asks of each recipient, its weight and values. */
export interface FoundVariant {
  template: MetaTemplate;
  needs: TemplateNeeds;
  weight: number;
  params?: RecipientParams;
}

type Request = Omit<SendInput, 'recipients'>;

/**
 * The template a send names: the client's synced record of it (no upstream call), else the upstream's (a
 * template the client has no record of yet). Returns whether the campaign is one of the record's.
 */
export async function templateToSend(
  deps: Pick<DryRunDeps, 'listing' | 'upstream'>,
  clientId: number,
  wabaId: string,
  template: { name: string; language: string },
): Promise<{ found: MetaTemplate | null; campaigns: number[] }> {
  const entry = await deps.listing.templateEntry(clientId, wabaId, template.name, template.language);
  if (entry) {
    const campaigns = entry.entry.channel_campaigns.map((group) => group.campaign_id);
    return { found: entry.entry.meta_template as MetaTemplate, campaigns };
  }
  try {
    return { found: await deps.upstream.findTemplate(wabaId, template.name, template.language), campaigns: [] };
  } catch (error) {
    // A refused lookup is the provider's problem, not the caller's: both are 502.
    if (error instanceof UpstreamRejected) throw new UpstreamUnavailable('The template provider refused the lookup');
    throw error;
  }
}

/** Who sends and from which number: the path's did is the body's, the acting client's own. */
export async function senderOf(deps: DryRunDeps, caller: Caller, pathDid: string, body: Request) {
  if (body.did !== pathDid)
    throw new Unprocessable('The path did differs from the body did', [{ path: 'did', message: `must equal the path did ${pathDid}` }]);
  const clientId = actingClient(caller, body.client_id);
  return { clientId, provider: await resolveProvider(deps, clientId, body.did) };
}

/** Why a template found cannot be sent (not APPROVED, named parameters), or undefined: it can. */
export function unsendable(found: MetaTemplate): string | undefined {
  if (found.status !== 'APPROVED') return `is ${found.status}; only APPROVED templates can be sent`;
  if (upper(found.parameter_format) === 'NAMED') return 'has named parameters, which cannot be sent';
  return undefined;
}

/** Find the template: the acting client, its number, and the template it names, which must be sendable. */
export async function findTemplate(deps: DryRunDeps, caller: Caller, pathDid: string, body: Request): Promise<FoundTemplate> {
  const { clientId, provider } = await senderOf(deps, caller, pathDid, body);
  if (!body.template) return directSendOf(deps, clientId, provider, body);
  const { found, campaigns } = await templateToSend(deps, clientId, provider.wabaId, body.template);
  if (!found) throw new NotFound(`Template ${body.template.name} (${body.template.language}) does not exist`);
  if (found.status !== 'APPROVED') throw new Unprocessable(`Template is ${found.status}; only APPROVED templates can be sent`);
  if (upper(found.parameter_format) === 'NAMED') throw new Unprocessable('Templates with named parameters cannot be sent');
  const campaignWarning =
    body.campaignId !== undefined && !campaigns.includes(body.campaignId)
      ? `campaign ${body.campaignId} is not assigned to this template for client ${clientId}`
      : undefined;
  return { clientId, provider, template: found, needs: templateNeeds(found), ...(campaignWarning && { campaignWarning }) };
}

/**
 * A Direct Send (issue 55 item 2): the WABA must be enabled by Meta (checked through Graph before anything is
 * reserved or queued); it goes as a template of its category with nothing to fill in, so its recipients give no
 * values and it is priced at its category's rate.
 */
async function directSendOf(deps: DryRunDeps, clientId: number, provider: ProviderConfig, body: Request): Promise<FoundTemplate> {
  if (!body.category || !body.message)
    throw new InvalidRequest('A send names a template, or is a Direct Send with category and message', [
      { path: 'template', message: 'is required (or category and message: a Direct Send)' },
    ]);
  const direct: DirectSend = { category: body.category, message: body.message };
  if (body.component)
    throw new InvalidRequest('A Direct Send takes no component', [{ path: 'component', message: 'not with a Direct Send' }]);
  await checkDirectSend(deps, provider.wabaId, direct);
  const template = directTemplate(direct);
  return { clientId, provider, template, needs: { header: 0, body: 0, buttons: 0 }, direct };
}

/** The problems of the request's own parts, the header and `send_at`, against the template and the time now. */
export async function componentProblems(deps: Pick<DryRunDeps, 'resolve'>, needs: TemplateNeeds, body: Request, nowMs: number) {
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
  problems.push(...sendAtProblems(body.send_at, nowMs));
  return problems;
}
