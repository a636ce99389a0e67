/**
 * The consent page's words and requests, without a browser (issue 45): a client's suppression list (decisions §25,
 * §28), each entry with where it came from.
 */

import type { Suppression } from '../answers.ts';

/** Where an entry came from, in words. */
export const SOURCE_WORDS: Record<Suppression['source'], string> = {
  api: 'Added by an operator',
  inbound: 'The person wrote an opt-out word (STOP, BAJA…)',
  '131050': 'Meta refused a message: the person stopped marketing (131050)',
  meta_preferences: 'The person turned marketing off in WhatsApp',
};

export const sourceWords = (source: string) => SOURCE_WORDS[source as Suppression['source']] ?? source;

/** A person as the API names one in a path: the phone number, else the BSUID. */
export const personOf = (entry: Pick<Suppression, 'phone' | 'user_id'>) => entry.phone ?? entry.user_id ?? '';

const BSUID = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;

/**
 * What the operator typed, as a person the API can look up: a phone number (6 to 15 digits, spaces, dashes,
 * dots and brackets dropped, a leading + kept) or a BSUID; a problem in words otherwise.
 */
export function personQuery(typed: string): { person: string } | { problem: string } {
  const text = typed.trim();
  if (BSUID.test(text)) return { person: text };
  const phone = text.replace(/[\s().-]/g, '');
  if (/^\+?[0-9]{6,15}$/.test(phone)) return { person: phone };
  return { problem: 'Enter a phone number (6 to 15 digits) or a BSUID (such as MX.1a2b3c).' };
}

/** `POST /v1/suppressions`'s body from the add form: the phone number or BSUID, the reason when given. */
export function addBody(form: { person: string; reason: string }, clientId: number) {
  const person = personQuery(form.person);
  if ('problem' in person) return person;
  const reason = form.reason.trim();
  return {
    body: {
      ...(BSUID.test(person.person) ? { user_id: person.person } : { phone: person.person }),
      ...(reason && { reason }),
      client_id: clientId,
    },
  };
}
