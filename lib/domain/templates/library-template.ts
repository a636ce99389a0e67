import type { ErrorDetail } from '../shared/errors.ts';
import type { Log } from '../shared/log.ts';
import type { LibraryTemplateInputs, TemplateDraftForUpstream, TemplateUpstream, UpstreamTemplate } from './ports.ts';
import type { Category } from './rules/components.ts';

/**
 * A template made from Meta's Template Library (issue 55 item 6, docs/platform-2027.md §6): the library names
 * its content, the request gives only what its buttons and body take. Meta approves it without review.
 */

/** Meta says UTILITY; the library also holds AUTHENTICATION templates (sources disagree: both are taken). */
export const LIBRARY_CATEGORIES: Category[] = ['UTILITY', 'AUTHENTICATION'];

/** The fields of a create that a library template may carry beside its own (the request schema's output). */
export interface LibraryRequest extends Partial<LibraryTemplateInputs> {
  header_source?: string;
  header_handle?: string;
  optimization_spec?: Record<string, unknown>;
  add_security_recommendation?: boolean;
  code_expiration_minutes?: number;
}

/** Fields that shape a template's own components, each with why a library template takes none. */
const OWN_COMPONENTS_ONLY: [keyof LibraryRequest, string][] = [
  ['header_source', 'not with library_template_name: a library template’s header is the library’s'],
  ['header_handle', 'not with library_template_name: a library template’s header is the library’s'],
  ['optimization_spec', 'not with library_template_name: library templates are UTILITY or AUTHENTICATION'],
  ['add_security_recommendation', 'give it in library_template_body_inputs'],
  ['code_expiration_minutes', 'give it in library_template_body_inputs'],
];

const AUTHENTICATION_BODY_INPUTS = ['add_security_recommendation', 'code_expiration_minutes'];
const UTILITY_BODY_INPUTS = ['add_contact_number', 'add_learn_more_link', 'add_track_package_link'];

function checkButtonInput(input: Record<string, unknown>, path: string, category: Category, problems: ErrorDetail[]) {
  if (input.type !== 'OTP') {
    if (category === 'AUTHENTICATION') problems.push({ path, message: 'an AUTHENTICATION library template takes OTP inputs only' });
    return;
  }
  if (category !== 'AUTHENTICATION') {
    problems.push({ path, message: 'OTP inputs belong to AUTHENTICATION library templates' });
    return;
  }
  const tap = input.otp_type === 'ONE_TAP' || input.otp_type === 'ZERO_TAP';
  const apps = input.supported_apps as unknown[] | undefined;
  if (tap && (!Array.isArray(apps) || apps.length === 0)) {
    problems.push({ path: `${path}.supported_apps`, message: 'is required for ONE_TAP and ZERO_TAP (1 to 5 apps)' });
  }
  if (input.otp_type === 'ZERO_TAP' && input.zero_tap_terms_accepted !== true) {
    problems.push({ path: `${path}.zero_tap_terms_accepted`, message: 'must be true for ZERO_TAP' });
  }
}

/** What a create from the library must not carry, and what its inputs must be for its category. */
export function checkLibraryTemplate(body: LibraryRequest, category: Category, hasFile: boolean): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!LIBRARY_CATEGORIES.includes(category)) {
    problems.push({ path: 'category', message: 'a library template is UTILITY or AUTHENTICATION' });
    return problems;
  }
  for (const [field, message] of OWN_COMPONENTS_ONLY) if (body[field] !== undefined) problems.push({ path: field, message });
  if (hasFile) problems.push({ path: 'file', message: 'not with library_template_name: a library template’s header is the library’s' });
  for (const [i, input] of (body.library_template_button_inputs ?? []).entries()) {
    checkButtonInput(input, `library_template_button_inputs[${i}]`, category, problems);
  }
  const others = category === 'AUTHENTICATION' ? UTILITY_BODY_INPUTS : AUTHENTICATION_BODY_INPUTS;
  for (const field of Object.keys(body.library_template_body_inputs ?? {})) {
    if (others.includes(field)) {
      problems.push({
        path: `library_template_body_inputs.${field}`,
        message: `belongs to ${category === 'AUTHENTICATION' ? 'UTILITY' : 'AUTHENTICATION'} library templates`,
      });
    }
  }
  return problems;
}

/** The library part of the upstream draft, with only the inputs given. */
export function libraryInputs(body: LibraryRequest): LibraryTemplateInputs | undefined {
  if (body.library_template_name === undefined) return undefined;
  return {
    library_template_name: body.library_template_name,
    ...(body.library_template_button_inputs && { library_template_button_inputs: body.library_template_button_inputs }),
    ...(body.library_template_body_inputs && { library_template_body_inputs: body.library_template_body_inputs }),
  };
}

/** Whether a template found upstream is the one this library draft made (a retried create adopts it). */
export function madeFromLibrary(existing: UpstreamTemplate, draft: TemplateDraftForUpstream): boolean {
  return draft.library !== undefined && existing.library_template_name === draft.library.library_template_name;
}

/**
 * The components Meta made from the library, read back so the record checks sends as any other template's
 * does. Unread (the read failed), the record keeps none until the next sync brings them.
 */
export async function libraryComponents(
  deps: { upstream: Pick<TemplateUpstream, 'findTemplate'>; log: Log },
  wabaId: string,
  draft: TemplateDraftForUpstream,
): Promise<Record<string, unknown>[]> {
  const found = await deps.upstream.findTemplate(wabaId, draft.name, draft.language).catch(() => null);
  if (!found) deps.log.warn('library template made, its components not read back: the next sync brings them', { name: draft.name });
  return found?.components ?? [];
}
