/**
 * Content negotiation of an `Accept` header (RFC 9110 §12.5.1): each type offered gets the q-value of the most
 * specific range that matches it (`text/csv`, then `text/*`, then `*\/*`); q=0 is "not acceptable". The highest
 * q wins; a tie goes to the range listed first, then to the order offered. JSON is always offered, first: no
 * header, or one that accepts nothing offered, answers JSON as it always did (never a 406).
 */

const JSON_TYPE = 'application/json';

/** One media range of the header: its type, subtype, q-value and place in the list. */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  order: number;
}

/** A q-value as RFC 9110 writes it: 0 to 1, at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The header's ranges, in order; one with a q-value that is not one is left out, as an unreadable part. */
export function mediaRanges(accept: string | undefined): MediaRange[] {
  return (accept ?? '').split(',').flatMap((part, order) => {
    const [range, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const [type, subtype] = range.split('/');
    if (!type || !subtype) return [];
    const q = params.map((p) => /^q\s*=\s*(.*)$/.exec(p)?.[1]).find((value) => value !== undefined) ?? '1';
    return QVALUE.test(q) ? [{ type, subtype, q: Number(q), order }] : [];
  });
}

/** How specific a range is for a type: 2 exact, 1 `type/*`, 0 `*\/*`, undefined when it does not match. */
function specificity(range: MediaRange, offered: string) {
  const [type, subtype] = offered.split('/');
  if (range.type === type && range.subtype === subtype) return 2;
  if (range.type === type && range.subtype === '*') return 1;
  if (range.type === '*' && range.subtype === '*') return 0;
  return undefined;
}

/** The range that decides a type's q: the most specific that matches it, the first listed among equals. */
function decidingRange(ranges: MediaRange[], offered: string) {
  let best: { range: MediaRange; specificity: number } | undefined;
  for (const range of ranges) {
    const found = specificity(range, offered);
    if (found !== undefined && (best === undefined || found > best.specificity)) best = { range, specificity: found };
  }
  return best?.range;
}

/** Of JSON and `offered`, the type the header prefers: one of `offered`, or undefined for JSON. */
export function wantedType<T extends string>(accept: string | undefined, offered: readonly T[]): T | undefined {
  const ranges = mediaRanges(accept);
  let chosen: { type: string; q: number; order: number } | undefined;
  for (const type of [JSON_TYPE, ...offered]) {
    const range = decidingRange(ranges, type);
    if (!range || range.q === 0) continue;
    if (!chosen || range.q > chosen.q || (range.q === chosen.q && range.order < chosen.order))
      chosen = { type, q: range.q, order: range.order };
  }
  return chosen && chosen.type !== JSON_TYPE ? (chosen.type as T) : undefined;
}
