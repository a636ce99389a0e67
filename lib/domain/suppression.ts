import type { Caller } from './caller.ts';
import { InvalidRequest, NotFound } from './errors.ts';
import { type PageRequest, resolvePage } from './paging.ts';
import type { Suppression, SuppressionStore } from './ports/consent.ts';
import { namedClient } from './tenancy.ts';

/**
 * Each client's suppression list (decisions §25): recipients who opted out of marketing. Entries come from the
 * API, from a 131050 refusal (the person stopped marketing from the business) and from an inbound message that
 * is an opt-out keyword; MARKETING sends skip them, other categories do not.
 */

/** Whole messages that opt a person out, or back in (case and accents aside). */
export const OPT_OUT_KEYWORDS = ['STOP', 'BAJA', 'PARAR', 'SAIR', 'UNSUBSCRIBE', 'CANCELAR'];
export const OPT_IN_KEYWORDS = ['START', 'ALTA'];

/** A message's text as a keyword: upper case, accents and surrounding spaces and punctuation gone. */
const keywordText = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .trim()
    .replace(/^[\s.!¡¿?,;:'"]+|[\s.!¡¿?,;:'"]+$/g, '')
    .toUpperCase();

/** What an inbound text says of consent: an opt-out, an opt-in, or nothing (any other message). */
export function consentOf(text: string): 'opt_out' | 'opt_in' | undefined {
  const word = keywordText(text);
  if (OPT_OUT_KEYWORDS.includes(word)) return 'opt_out';
  return OPT_IN_KEYWORDS.includes(word) ? 'opt_in' : undefined;
}

/** A phone number as the list keys it: its digits (as a send's repeats are found). */
export const phoneKey = (phone: string) => phone.replace(/\D/g, '');

export const SUPPRESSIONS_PAGE = { size: 50, max: 500 };

/** GET /v1/suppressions: the client's entries, by phone number. */
export async function listSuppressions(
  deps: { suppressions: SuppressionStore },
  caller: Caller,
  query: PageRequest & { client_id?: number },
) {
  const clientId = namedClient(caller, query.client_id);
  const page = resolvePage(query, SUPPRESSIONS_PAGE);
  const { entries, total } = await deps.suppressions.list(clientId, page);
  return { data: entries, total, page: page.page, page_size: page.size };
}

/** POST /v1/suppressions: an entry from the API (again: the first entry stays, with its source). */
export async function addSuppression(
  deps: { suppressions: SuppressionStore; now?: () => string },
  caller: Caller,
  body: { phone: string; reason?: string; client_id?: number },
) {
  const clientId = namedClient(caller, body.client_id);
  const phone = phoneKey(body.phone);
  if (phone.length < 6 || phone.length > 15)
    throw new InvalidRequest('phone must have 6 to 15 digits', [{ path: 'phone', message: 'must have 6 to 15 digits' }]);
  const entry: Suppression = {
    phone,
    source: 'api',
    at: deps.now?.() ?? new Date().toISOString(),
    ...(body.reason && { reason: body.reason }),
  };
  const added = await deps.suppressions.add(clientId, entry);
  return {
    client_id: clientId,
    created: added,
    ...(added ? entry : ((await deps.suppressions.get(clientId, [phone])).get(phone) ?? entry)),
  };
}

/** GET /v1/suppressions/{phone}: one number's entry, with where it came from (404 when not on the list). */
export async function getSuppression(deps: { suppressions: SuppressionStore }, caller: Caller, phone: string, requested?: number) {
  const clientId = namedClient(caller, requested);
  const key = phoneKey(phone);
  const entry = (await deps.suppressions.get(clientId, [key])).get(key);
  if (!entry) throw new NotFound(`${key} is not on the client's suppression list`);
  return { client_id: clientId, ...entry };
}

/** DELETE /v1/suppressions/{phone}: the person may get marketing again. */
export async function removeSuppression(deps: { suppressions: SuppressionStore }, caller: Caller, phone: string, requested?: number) {
  const clientId = namedClient(caller, requested);
  const key = phoneKey(phone);
  if (!(await deps.suppressions.remove(clientId, key))) throw new NotFound(`${key} is not on the client's suppression list`);
  return { client_id: clientId, phone: key, removed: true as const };
}

/**
 * An inbound text to one of the client's numbers (Meta's `messages` webhook): an opt-out keyword adds the sender
 * (with the message as evidence), an opt-in keyword removes them; anything else changes nothing.
 */
export async function applyInboundConsent(
  deps: { suppressions: SuppressionStore },
  clientId: number,
  message: { from: string; text: string; id: string; at: string },
) {
  const consent = consentOf(message.text);
  const phone = phoneKey(message.from);
  if (consent === 'opt_out') await deps.suppressions.add(clientId, { phone, source: 'inbound', at: message.at, message_id: message.id });
  else if (consent === 'opt_in') await deps.suppressions.remove(clientId, phone);
  return consent;
}
