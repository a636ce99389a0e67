import type { Caller } from '../shared/caller.ts';
import { Conflict, InvalidRequest, NotFound, UpstreamRejected, UpstreamUnavailable } from '../shared/errors.ts';
import { AssignmentConflict, type TemplateRecords, type TemplateListing } from './ports.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import type { TemplateEdit, TemplateUpstream } from './ports.ts';
import { TEMPLATE_INVALID, wabaWordings } from './create-template.ts';
import { resolveProvider } from '../shared/provider.ts';
import type { MetaTemplate, TemplateRecord } from './template-record.ts';
import { normalizeComponents } from './rules/changes.ts';
import { CATEGORIES, type Category } from './rules/components.ts';
import { checkTemplateDraft } from './rules/draft.ts';
import { dryRun, reviewWarnings } from './rules/review.ts';
import { actingClient } from '../shared/tenancy.ts';

/** PUT /v1/templates/{did}/{messageTemplateId} (spec §6, transitions): the body as the request schema delivers it. */
export interface EditTemplateInput {
  components: Record<string, unknown>[];
  name?: string;
  language?: string;
  category?: string;
  client_id?: number;
  allow_button_url_change?: boolean;
  optimization_spec?: Record<string, unknown>;
}

export interface EditDeps {
  directory: DirectoryStore;
  records: TemplateRecords;
  listing: TemplateListing;
  upstream: TemplateUpstream;
  now?: () => string;
}

export const NO_CHANGE_MESSAGE = 'No change detected; the upstream update was skipped';

export interface EditInput {
  did: string;
  recordId: string;
  body: EditTemplateInput;
  /** `?dry_run=true` (decisions §18): every check and the review warnings, without the upstream or a write. */
  dryRun?: boolean;
}

export async function editTemplate(deps: EditDeps, caller: Caller, input: EditInput) {
  const { body } = input;
  const clientId = actingClient(caller, body.client_id);
  const provider = await resolveProvider(deps, clientId, input.did);
  const record = await deps.records.get(input.recordId);
  // The record must be a template of the DID's WABA, and visible to the caller (decisions §10).
  if (!record || record.waba_id !== provider.wabaId || (record.client_id !== clientId && !caller.isBsp)) {
    throw new NotFound('Template not found for this DID');
  }
  const current = record.meta_template;
  const warnings = reviewWarnings(body.components, await wabaWordings(deps.listing, clientId, record.waba_id, current));
  if (input.dryRun) return dryRun(() => checkEdit(deps, record, body), warnings);
  const { category, meta } = checkEdit(deps, record, body);
  const withWarnings = <T extends object>(result: T) => ({ ...result, ...(warnings.length > 0 && { review_warnings: warnings }) });
  const sameComponents = normalizeComponents(body.components) === normalizeComponents(current.components);
  const sameSpec =
    body.optimization_spec === undefined ||
    JSON.stringify(body.optimization_spec) === JSON.stringify(stripCountry(record.optimization_spec));
  if (sameComponents && category === current.category && sameSpec) {
    return withWarnings({ success: true as const, changed: false as const, message: NO_CHANGE_MESSAGE });
  }
  // name and language never go upstream: they cannot change.
  const edit: TemplateEdit = { components: body.components };
  if (category !== current.category) edit.category = category;
  if (body.optimization_spec) edit.optimization = body.optimization_spec;
  // Every record of the template, for every client sharing the WABA, shows the new content.
  const siblings = await deps.records.listForTemplate(record.waba_id, current.id);
  const now = () => deps.now?.() ?? new Date().toISOString();
  // Status news Meta dated before the edit began is about the template before it (it arrives late, not in order).
  const editedSince = now();
  const store = (stored: MetaTemplate) =>
    deps.records.replaceMetaTemplate(siblings, stored, 'edit', now(), editedSince).catch((error: unknown) => {
      // Other writers kept winning on these records: the upstream holds the edit and the next sync stores it.
      if (error instanceof AssignmentConflict) throw new Conflict('The template records changed while this edit was stored; retry it');
      throw error;
    });
  try {
    await deps.upstream.editTemplate(current.id, edit);
  } catch (error) {
    // A lost answer, or a retry refused because the first try was applied (the template is PENDING now),
    // does not say whether the edit happened: store what the upstream holds now.
    if (!(error instanceof UpstreamUnavailable || error instanceof UpstreamRejected)) throw error;
    const held = await deps.upstream.findTemplate(record.waba_id, current.name, current.language).catch(() => null);
    if (held && held.id === current.id && normalizeComponents(held.components) !== normalizeComponents(current.components)) {
      await store({ ...current, ...held });
      if (normalizeComponents(held.components) === normalizeComponents(body.components))
        return { success: true as const, changed: true as const };
    }
    throw error;
  }
  await store(meta);
  return withWarnings({ success: true as const, changed: true as const });
}

/** The rules of an edit: the category, the APPROVED category lock, the draft, and what the records can hold. */
function checkEdit(deps: EditDeps, record: TemplateRecord, body: EditTemplateInput) {
  const current = record.meta_template;
  const category = (body.category?.toUpperCase() ?? current.category) as Category;
  if (!CATEGORIES.includes(category)) {
    throw new InvalidRequest(TEMPLATE_INVALID, [{ path: 'category', message: 'must be MARKETING, UTILITY or AUTHENTICATION' }]);
  }
  if (current.status === 'APPROVED' && category !== current.category) {
    throw new InvalidRequest('The category of an APPROVED template cannot be changed', [
      { path: 'category', message: `stays ${current.category}` },
    ]);
  }
  const { problems } = checkTemplateDraft({ category, components: body.components });
  if (problems.length > 0) throw new InvalidRequest(TEMPLATE_INVALID, problems);
  const meta: MetaTemplate = { ...current, components: body.components, category, status: 'PENDING' };
  // Checked before the upstream changes anything: an edit the records cannot hold is never sent.
  const unstorable = deps.records.storageProblem({ ...record, meta_template: meta });
  if (unstorable) throw new InvalidRequest(TEMPLATE_INVALID, [unstorable]);
  return { category, meta };
}

function stripCountry(spec: Record<string, unknown> | undefined) {
  if (!spec) return undefined;
  const { country: _country, ...rest } = spec;
  return rest;
}
