import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';

/**
 * The region (ISO 3166 alpha-2) of a phone number, as libphonenumber-js knows it (decisions §26): +1 787 is
 * Puerto Rico, +1 868 Trinidad and Tobago, +7 7xx Kazakhstan. A number the library cannot place in one region
 * of its calling code (a fictional +1 555 number, a range not yet in its metadata) is placed in the calling
 * code's main region, as the library's metadata names it; digits with no calling code are `ZZ` (unknown).
 */
export function regionOf(digits: string): string {
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (parsed?.country) return parsed.country;
  const code = parsed?.countryCallingCode ?? callingCodeOf(digits);
  return (code && MAIN_REGION.get(code)) ?? UNKNOWN_REGION;
}

/** What libphonenumber-js calls a region it cannot name. */
export const UNKNOWN_REGION = 'ZZ';

/**
 * Whether the library says the number cannot be one of its region's numbers (a wrong length, a range no
 * operator has): a dry run warns about it and never refuses, since Meta has the last word (decisions §26).
 */
export function isImpossibleNumber(digits: string): boolean {
  return !parsePhoneNumberFromString(`+${digits}`)?.isValid();
}

const codes = (metadata as { country_calling_codes: Record<string, string[]> }).country_calling_codes;
/** Each calling code's main region: the first the metadata lists (US for +1, RU for +7, GB for +44). */
const MAIN_REGION = new Map(Object.entries(codes).map(([code, regions]) => [code, regions[0]]));

/** The calling code that starts the digits (calling codes are prefix-free, one to three digits). */
const callingCodeOf = (digits: string) => [1, 2, 3].map((n) => digits.slice(0, n)).find((code) => MAIN_REGION.has(code));

/** Every region the library knows, with its calling code: the domain every card's region map must cover. */
export const KNOWN_REGIONS: ReadonlyMap<string, string> = new Map(
  Object.entries(codes).flatMap(([code, regions]) => regions.map((region) => [region, code] as const)),
);
