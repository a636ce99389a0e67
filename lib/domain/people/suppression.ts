import type { Caller } from '../shared/caller.ts';
import { InvalidRequest, NotFound } from '../shared/errors.ts';
import { peopleMapScopeOf, knownPerson } from './people-map.ts';
import { type PageRequest, resolvePage } from '../shared/paging.ts';
import { BSUID, type Person } from './person.ts';
import type { PeopleMap, Suppression, SuppressionStore } from './ports.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import { namedClient } from '../shared/tenancy.ts';

/**
 * Each client's suppression list (decisions §25): recipients who opted out of marketing. Entries come from the
 * API, from a 131050 refusal (the person stopped marketing from the business) and from an inbound message that
 * is an opt-out keyword; MARKETING sends skip them, other categories do not. Consent follows the person
 * (decisions §28): an entry names a phone number, a BSUID or both, and a send skips either half of a known pair.
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

/** Where an entry is kept: under its number's digits when it has one, else under `U#<user_id>`. */
export const suppressionKey = (person: { phone?: string; user_id?: string }) => person.phone ?? `U#${person.user_id}`;

/** The list's keys of a person: each half it has. */
const keysOf = (person: Person) => [...(person.phone ? [person.phone] : []), ...(person.user_id ? [`U#${person.user_id}`] : [])];

export const SUPPRESSIONS_PAGE = { size: 50, max: 500 };

type ConsentDeps = { suppressions: SuppressionStore; peopleMap?: PeopleMap; directory?: Pick<DirectoryStore, 'getWaba'> };

/** A path's person: a BSUID as it is, else a phone number's digits (400 when it is neither). */
function personOfPath(id: string): Person {
  if (BSUID.test(id)) return { user_id: id };
  const phone = phoneKey(id);
  if (!/^\+?[0-9]{6,15}$/.test(id))
    throw new InvalidRequest('Not a phone number or a BSUID', [
      { path: 'person', message: 'must be a phone number (6 to 15 digits) or a BSUID' },
    ]);
  return { phone };
}

/** GET /v1/suppressions: the client's entries, by phone number (then BSUID). */
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

/**
 * Entries for a person (decisions §28): one under each half it has, each naming both halves, so either half finds
 * it (and removes both) even before the people map knows the pair. Whether the first was new.
 */
async function suppressPerson(deps: ConsentDeps, clientId: number, person: Person, entry: Omit<Suppression, 'phone' | 'user_id'>) {
  const full: Suppression = { ...(person.phone && { phone: person.phone }), ...(person.user_id && { user_id: person.user_id }), ...entry };
  const added = await Promise.all(keysOf(person).map((key) => deps.suppressions.add(clientId, full, key)));
  return { entry: full, added: added[0] ?? false };
}

/** POST /v1/suppressions: an entry from the API by phone number and/or BSUID (again: the first entry stays). */
export async function addSuppression(
  deps: ConsentDeps & { now?: () => string },
  caller: Caller,
  body: { phone?: string; user_id?: string; reason?: string; client_id?: number },
) {
  const clientId = namedClient(caller, body.client_id);
  if (body.phone === undefined && body.user_id === undefined)
    throw new InvalidRequest('phone or user_id is required', [{ path: 'phone', message: 'give phone, user_id or both' }]);
  if (body.user_id !== undefined && !BSUID.test(body.user_id))
    throw new InvalidRequest('user_id is not a BSUID', [{ path: 'user_id', message: 'must be a BSUID (CC.[ENT.]alphanumerics)' }]);
  const phone = body.phone === undefined ? undefined : phoneKey(body.phone);
  if (phone !== undefined && (phone.length < 6 || phone.length > 15))
    throw new InvalidRequest('phone must have 6 to 15 digits', [{ path: 'phone', message: 'must have 6 to 15 digits' }]);
  const person = { ...(phone && { phone }), ...(body.user_id && { user_id: body.user_id }) };
  const { entry, added } = await suppressPerson(deps, clientId, person, {
    source: 'api',
    at: deps.now?.() ?? new Date().toISOString(),
    ...(body.reason && { reason: body.reason }),
  });
  const [key] = keysOf(entry);
  return {
    client_id: clientId,
    created: added,
    ...(added ? entry : ((await deps.suppressions.get(clientId, [key])).get(key) ?? entry)),
  };
}

/** The entry kept under a path's person (its phone number's digits, or its BSUID). */
async function entryOfPerson(deps: ConsentDeps, clientId: number, person: Person) {
  const [key] = keysOf(person);
  const own = (await deps.suppressions.get(clientId, [key])).get(key);
  return { key, entry: own };
}

/** GET /v1/suppressions/{phone or user_id}: one person's entry, with where it came from (404 when not on the list). */
export async function getSuppression(deps: ConsentDeps, caller: Caller, id: string, requested?: number) {
  const clientId = namedClient(caller, requested);
  const { key, entry } = await entryOfPerson(deps, clientId, personOfPath(id));
  if (!entry) throw new NotFound(`${key.replace(/^U#/, '')} is not on the client's suppression list`);
  return { client_id: clientId, ...entry };
}

/** DELETE /v1/suppressions/{phone or user_id}: the person may get marketing again (the entries of both halves go). */
export async function removeSuppression(deps: ConsentDeps, caller: Caller, id: string, requested?: number) {
  const clientId = namedClient(caller, requested);
  const person = personOfPath(id);
  const { key, entry } = await entryOfPerson(deps, clientId, person);
  if (!entry || !(await unsuppressPerson(deps, clientId, { ...person, ...entry })))
    throw new NotFound(`${key.replace(/^U#/, '')} is not on the client's suppression list`);
  return {
    client_id: clientId,
    ...(person.phone && { phone: person.phone }),
    ...(person.user_id && { user_id: person.user_id }),
    removed: true as const,
  };
}

/** Every entry of a person's halves removed: whether any was there. */
async function unsuppressPerson(deps: ConsentDeps, clientId: number, person: Person) {
  const removed = await Promise.all(keysOf(person).map((key) => deps.suppressions.remove(clientId, key)));
  return removed.some(Boolean);
}

/**
 * A person of a webhook with the halves the people map knows of them (in the WABA's scope), from the client's
 * own numbers' traffic only (decisions §32).
 */
async function personKnown(deps: ConsentDeps, clientId: number, wabaId: string | undefined, person: Person): Promise<Person> {
  if (!deps.peopleMap || !deps.directory || !wabaId || (person.phone && person.user_id)) return person;
  const scope = await peopleMapScopeOf(wabaId, deps.directory);
  const { username: _u, ...known } = knownPerson(person, await deps.peopleMap.pairsOf(scope, [person], clientId));
  return known;
}

/**
 * An inbound text to one of the client's numbers (Meta's `messages` webhook): an opt-out keyword adds the sender
 * (with the message as evidence), an opt-in keyword removes them; anything else changes nothing. A sender whose
 * webhook has no phone number (a username user, decisions §28) is suppressed by BSUID and by the phone number
 * the people map pairs with it.
 */
export async function applyInboundConsent(
  deps: ConsentDeps,
  clientId: number,
  message: { from?: string; user_id?: string; text: string; id: string; at: string; waba_id?: string },
) {
  const consent = consentOf(message.text);
  if (!consent) return consent;
  const given = { ...(message.from && { phone: phoneKey(message.from) }), ...(message.user_id && { user_id: message.user_id }) };
  const person = await personKnown(deps, clientId, message.waba_id, given);
  if (consent === 'opt_out') await suppressPerson(deps, clientId, person, { source: 'inbound', at: message.at, message_id: message.id });
  else await unsuppressPerson(deps, clientId, person);
  return consent;
}

/** Meta's `user_preferences` webhook (decisions §28): marketing stopped adds the person, resumed removes them. */
export async function applyMarketingPreference(
  deps: ConsentDeps,
  clientId: number,
  preference: { phone?: string; user_id?: string; value: 'stop' | 'resume'; at: string; waba_id?: string },
) {
  const given = {
    ...(preference.phone && { phone: phoneKey(preference.phone) }),
    ...(preference.user_id && { user_id: preference.user_id }),
  };
  const person = await personKnown(deps, clientId, preference.waba_id, given);
  if (preference.value === 'stop') await suppressPerson(deps, clientId, person, { source: 'meta_preferences', at: preference.at });
  else await unsuppressPerson(deps, clientId, person);
}

/**
 * The positions of a send's recipients who are suppressed (decisions §25, §28): by phone number, by BSUID, or by
 * the other half of a pair the people map knows from the client's own numbers (decisions §32: another client's
 * pair would make this an oracle of who is behind a BSUID). One BatchGetItem per hundred keys of the map, then
 * one per hundred keys of the list, however long it is. The caller asks only for MARKETING sends.
 */
export async function suppressedPeople(
  deps: { suppressions: SuppressionStore; peopleMap?: PeopleMap; directory: Pick<DirectoryStore, 'getWaba'> },
  clientId: number,
  wabaId: string,
  recipients: Person[],
  /** The recipients' pairs served to this client, where read already (a send's repeats are found per person first). */
  known?: Map<string, Person>,
): Promise<Set<number>> {
  if (recipients.length === 0) return new Set();
  const halves = recipients.map((r) => ({ ...(r.phone && { phone: phoneKey(r.phone) }), ...(r.user_id && { user_id: r.user_id }) }));
  const pairs =
    known ??
    (deps.peopleMap
      ? await deps.peopleMap.pairsOf(await peopleMapScopeOf(wabaId, deps.directory), halves, clientId)
      : new Map<string, Person>());
  // Each recipient's own halves and both halves of the pair of each (a number and a BSUID may name two people).
  const keys = halves.map((person) => [
    ...keysOf(person),
    ...[person.phone && pairs.get(`p:${person.phone}`), person.user_id && pairs.get(`u:${person.user_id}`)].flatMap((pair) =>
      pair ? keysOf(pair) : [],
    ),
  ]);
  const found = await deps.suppressions.get(clientId, [...new Set(keys.flat())]);
  return new Set(keys.flatMap((own, i) => (own.some((key) => found.has(key)) ? [i] : [])));
}
