import { type Person, recipientDigits } from '../../people/person.ts';

/**
 * A person's variant of an A/B send (decisions §33, docs/ab-sends.md): a seeded hash of the person mapped onto the
 * variants' weights. The seed is the client and its variants' templates, so the same person gets the same variant
 * in every send of those variants (a repeat); a resend carries each recipient's recorded variant. Whether a person
 * is in a test-first send's test share comes from the same hash of the person under another label, so the share
 * is as stable as the variant and independent of it. Pure: no clock, no randomness.
 */

/** cyrb53: a 53-bit string hash (public domain, bryc), spread well enough that 10,000 people follow the weights. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A point in [0, 1) for the person under the seed and a label (`variant`, `test`). */
export const unitOf = (seed: string, label: string, person: string) => hash53(`${seed}|${label}|${person}`) / 2 ** 53;

/** A variant's template as the seed names it. */
const templateKey = (variant: { name: string; language: string }) => `${variant.name}@${variant.language}`;

/**
 * The seed of a send's variants: its client and its variants' templates, sorted, so the order the request lists
 * them in does not matter, and weights may change between repeats (only the people at a boundary move).
 */
export const seedOf = (clientId: number, variants: { name: string; language: string }[]) =>
  `ab1|${clientId}|${variants.map(templateKey).sort().join('|')}`;

/**
 * The person as the hash takes them (decisions §28): their number's digits; a recipient named by BSUID alone, the
 * number the people map pairs with it, else the BSUID. So one person named either way gets one variant.
 */
export function abPersonKey(recipient: { to?: string; user_id?: string }, pairs?: Map<string, Person>): string {
  if (recipient.to !== undefined) return `p:${recipientDigits(recipient.to)}`;
  const phone = pairs?.get(`u:${recipient.user_id}`)?.phone;
  return phone ? `p:${phone}` : `u:${recipient.user_id ?? ''}`;
}

/**
 * The variant (its position in the request) a person gets: the hash's point laid onto the weights, the variants
 * taken in the order of their templates (as the seed), so a repeat listing them otherwise gives the same.
 */
export function variantOf(seed: string, person: string, variants: { name: string; language: string; weight: number }[]): number {
  const order = variants.map((variant, index) => ({ key: templateKey(variant), index, weight: variant.weight }));
  order.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index));
  const total = order.reduce((sum, v) => sum + v.weight, 0);
  let point = unitOf(seed, 'variant', person) * total;
  for (const v of order) {
    if (point < v.weight) return v.index;
    point -= v.weight;
  }
  return order[order.length - 1].index;
}

/** Whether a person is in a test-first send's test share (`share` of the people, by the same hash under `test`). */
export const inTestShare = (seed: string, person: string, share: number) => unitOf(seed, 'test', person) < share;
