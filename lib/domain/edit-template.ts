import type { Caller } from '#lib/auth/caller.ts';
import { badRequest, notFound } from '#lib/errors.ts';
import type { EditTemplateInput } from '#lib/schemas/create-template.ts';
import type { DirectoryStore, TemplateRecordStore } from '#lib/store/ports.ts';
import { callUpstream } from '#lib/upstream/errors.ts';
import { resolveProvider, type WabaLookup } from './provider.ts';
import type { MetaTemplate } from './template-record.ts';
import { CATEGORIES, checkTemplateDraft, normalizeComponents, type Category } from './template-rules.ts';
import { actingClient } from './tenancy.ts';

/** PUT /v1/templates/{did}/{messageTemplateId} (spec §6, transitions). */
export interface EditDeps {
  directory: DirectoryStore;
  records: TemplateRecordStore;
  upstream: WabaLookup & { editTemplate(templateId: string, body: Record<string, unknown>): Promise<{ success: boolean }> };
  now?: () => string;
}

export const NO_CHANGE_MESSAGE = 'No change detected; the upstream update was skipped';

export async function editTemplate(
  deps: EditDeps,
  caller: Caller,
  input: { did: string; recordId: string; body: EditTemplateInput },
) {
  const { body } = input;
  const clientId = actingClient(caller, body.client_id);
  const provider = await resolveProvider(deps, clientId, input.did);
  const record = await deps.records.get(input.recordId);
  // The record must be a template of the DID's WABA, and visible to the caller (decisions §10).
  if (!record || record.waba_id !== provider.wabaId || (record.client_id !== clientId && !caller.isBsp)) {
    throw notFound('Template not found for this DID');
  }
  const current = record.meta_template;
  const category = (body.category?.toUpperCase() ?? current.category) as Category;
  if (!CATEGORIES.includes(category)) throw badRequest('Template validation failed', [{ path: 'category', message: 'must be MARKETING, UTILITY or AUTHENTICATION' }]);
  if (current.status === 'APPROVED' && category !== current.category) {
    throw badRequest('The category of an APPROVED template cannot be changed', [{ path: 'category', message: `stays ${current.category}` }]);
  }
  const { problems } = checkTemplateDraft({ category, components: body.components });
  if (problems.length > 0) throw badRequest('Template validation failed', problems);

  const sameComponents = normalizeComponents(body.components) === normalizeComponents(current.components);
  const sameSpec = body.optimization_spec === undefined || JSON.stringify(body.optimization_spec) === JSON.stringify(stripCountry(record.optimization_spec));
  if (sameComponents && category === current.category && sameSpec) {
    return { success: true as const, changed: false as const, message: NO_CHANGE_MESSAGE };
  }
  // name and language never go upstream: they cannot change.
  const upstreamBody: Record<string, unknown> = { components: body.components };
  if (category !== current.category) upstreamBody.category = category;
  if (body.optimization_spec) upstreamBody.bid_spec = body.optimization_spec;
  await callUpstream(() => deps.upstream.editTemplate(current.id, upstreamBody));

  const now = deps.now?.() ?? new Date().toISOString();
  const meta: MetaTemplate = { ...current, components: body.components, category, status: 'PENDING' };
  // Every record of the template, for every client sharing the WABA, shows the new content.
  const siblings = await deps.records.listForTemplate(record.waba_id, current.id);
  await deps.records.replaceMetaTemplate(siblings, meta, 'edit', now);
  return { success: true as const, changed: true as const };
}

function stripCountry(spec: Record<string, unknown> | undefined) {
  if (!spec) return undefined;
  const { country: _country, ...rest } = spec;
  return rest;
}
