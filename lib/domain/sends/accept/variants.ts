import type { Caller } from '../../shared/caller.ts';
import { type ErrorDetail, InvalidRequest, NotFound, Unprocessable } from '../../shared/errors.ts';
import { upper } from '../../shared/text.ts';
import type { VariantRequest } from '../ab/ab-send.ts';
import { valuesFor } from '../ab/job-variants.ts';
import { type FoundTemplate, type FoundVariant, senderOf, templateToSend, unsendable } from './find-template.ts';
import type { DryRunDeps } from './send-deps.ts';
import { checkRecipients, type SendInput, type SendRecipient, templateNeeds } from './send-rules.ts';

/**
 * An A/B send's variants (decisions §33, docs/ab-sends.md): each a template of the client's, APPROVED, all of one
 * category (a 422 naming the variant otherwise); each recipient's values must fill every variant (with the
 * variant's own values in place of theirs), since the hash, or a test's decision, may give them any of them.
 */

type Request = Omit<SendInput, 'recipients'>;

/** Each variant's template and language: a variant without one takes the first variant's. */
function namedVariants(variants: VariantRequest[]) {
  const language = variants[0].language;
  if (language === undefined)
    throw new InvalidRequest('The first variant names the language', [
      { path: 'variants[0].language', message: 'is required: the other variants take it unless they name their own' },
    ]);
  const named = variants.map((v) => ({ ...v, language: v.language ?? language }));
  const problems: ErrorDetail[] = [];
  named.forEach((v, i) => {
    const same = named.findIndex((w) => w.template === v.template && w.language === v.language);
    if (same < i) problems.push({ path: `variants[${i}].template`, message: `names the same template as variants[${same}]` });
  });
  if (problems.length > 0) throw new InvalidRequest('Each variant is a template of its own', problems);
  return named;
}

/** One variant's template, found as a send's template is, and sendable. */
async function variantTemplate(
  deps: DryRunDeps,
  sender: { clientId: number; wabaId: string },
  variant: VariantRequest & { language: string },
  i: number,
) {
  const name = { name: variant.template, language: variant.language };
  const { found, campaigns } = await templateToSend(deps, sender.clientId, sender.wabaId, name);
  const path = `variants[${i}].template`;
  if (!found) throw new NotFound(`Template ${name.name} (${name.language}) of variants[${i}] does not exist`);
  const refused = unsendable(found);
  if (refused) throw new Unprocessable(`The template of variants[${i}] ${refused}`, [{ path, message: refused }]);
  const one: FoundVariant = {
    template: found,
    needs: templateNeeds(found),
    weight: variant.weight,
    ...(variant.params && { params: variant.params }),
  };
  return { variant: one, campaigns };
}

/** Every variant of one category: the first's (a send is priced, routed and capped by its category). */
function sameCategory(variants: FoundVariant[]) {
  const category = upper(variants[0].template.category);
  const others = variants.flatMap((v, i) => (upper(v.template.category) === category ? [] : [i]));
  if (others.length > 0)
    throw new Unprocessable(
      `Every variant is of one category: variants[0] is ${category}`,
      others.map((i) => ({ path: `variants[${i}].template`, message: `is ${upper(variants[i].template.category)}, not ${category}` })),
    );
}

/** Find an A/B send's variants: the acting client, its number, and each variant's template, sendable and of one category. */
export async function findVariants(deps: DryRunDeps, caller: Caller, pathDid: string, body: Request): Promise<FoundTemplate> {
  const { clientId, provider } = await senderOf(deps, caller, pathDid, body);
  const named = namedVariants(body.variants ?? []);
  const sender = { clientId, wabaId: provider.wabaId };
  const found = await Promise.all(named.map((variant, i) => variantTemplate(deps, sender, variant, i)));
  const variants = found.map((f) => f.variant);
  sameCategory(variants);
  const unassigned = found.flatMap((f, i) => (body.campaignId !== undefined && !f.campaigns.includes(body.campaignId) ? [i] : []));
  const campaignWarning =
    unassigned.length > 0
      ? `campaign ${body.campaignId} is not assigned to the template of ${unassigned.map((i) => `variants[${i}]`).join(', ')} for client ${clientId}`
      : undefined;
  const [first] = variants;
  return { clientId, provider, template: first.template, needs: first.needs, variants, ...(campaignWarning && { campaignWarning }) };
}

/**
 * Every recipient's values against the template, or against every variant with the variant's values in place of
 * theirs (each problem says which variant); at most `limit` problems.
 */
export function recipientProblemsOf(found: FoundTemplate, recipients: readonly SendRecipient[], limit: number): ErrorDetail[] {
  if (!found.variants) return checkRecipients(found.needs, recipients, limit);
  const problems: ErrorDetail[] = [];
  for (const [i, variant] of found.variants.entries()) {
    if (problems.length >= limit) break;
    const filled = variant.params ? recipients.map((r) => ({ ...r, params: valuesFor(r.params, variant.params) })) : recipients;
    for (const problem of checkRecipients(variant.needs, filled, limit - problems.length))
      problems.push({ ...problem, message: `${problem.message} (variants[${i}], ${variant.template.name})` });
  }
  return problems;
}

/** A test's rest must go before the send expires: its wait shorter than the send's TTL (as its jobs take it). */
function testProblems(body: Request): ErrorDetail[] {
  const ttls = [body.message_send_ttl_seconds, body.ttl_seconds].filter((t): t is number => t !== undefined && t > 0);
  const ttl = ttls.length > 0 ? Math.min(...ttls) : undefined;
  if (!body.test || ttl === undefined || body.test.wait_seconds < ttl) return [];
  return [{ path: 'test.wait_seconds', message: `must be under the send’s TTL (${ttl} s): its rest would expire before it goes` }];
}

/** The problems of the request's own parts against each variant (its header; a test's wait), each once. */
export async function variantComponentProblems(
  found: FoundTemplate,
  body: Request,
  problemsOf: (needs: FoundTemplate['needs']) => Promise<ErrorDetail[]>,
): Promise<ErrorDetail[]> {
  const all = [...(await Promise.all((found.variants ?? [found]).map((v) => problemsOf(v.needs)))).flat(), ...testProblems(body)];
  const seen = new Set<string>();
  return all.filter((p) => !seen.has(`${p.path}|${p.message}`) && seen.add(`${p.path}|${p.message}`));
}
