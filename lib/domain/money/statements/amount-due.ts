import { MICROS_PER_UNIT } from '../../shared/money.ts';

// What a finance team files (decisions §30): lines to the micro-unit, each currency's total in its minor unit.

/** The rounding rule, printed on every statement. */
export const ROUNDING_RULE =
  'Lines are to the micro-unit (0.000001). Each currency’s amount due is its total rounded half up to the currency’s minor unit (ISO 4217: 2 decimals for USD and EUR, 0 for JPY).';

/** The decimals of a currency's minor unit (ISO 4217, as the platform's Intl knows it); 2 for a code it does not. */
export function minorDigitsOf(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A total in micro-units as the amount due: whole minor units (half up), and the same as a decimal amount. */
export function amountDue(micros: number, currency: string) {
  const digits = minorDigitsOf(currency);
  const minor = Math.round(micros / (MICROS_PER_UNIT / 10 ** digits));
  return { amount: minor / 10 ** digits, minor_units: minor, minor_digits: digits };
}
