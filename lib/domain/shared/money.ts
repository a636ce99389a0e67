/**
 * Money (decisions §26, §27): every amount is kept in micro-units of its currency, integers, so sums of thousands
 * of prices stay exact; an amount is a decimal only where it is shown (an answer's body, a CSV, a PDF).
 */

/** Micro-units in one unit of a currency. */
export const MICROS_PER_UNIT = 1_000_000;

/** The digits an amount is shown with: one per place of a micro-unit. */
export const AMOUNT_DECIMALS = 6;

/** The micro-units of a decimal amount (0.0125 → 12_500), to the nearest micro-unit. */
export const toMicros = (amount: number) => Math.round(amount * MICROS_PER_UNIT);

/** Micro-units as a decimal amount (12_500 → 0.0125), exact to the micro-unit. */
export const fromMicros = (micros: number) => Math.round(micros) / MICROS_PER_UNIT;

/** A decimal amount kept to the micro-unit (0.01234567 → 0.012346). */
export const roundToMicros = (amount: number) => fromMicros(toMicros(amount));

/** Micro-units as the decimal text shown, every place of a micro-unit written (12_500 → "0.012500"). */
export const microsText = (micros: number) => fromMicros(micros).toFixed(AMOUNT_DECIMALS);

/** A decimal amount as the text shown, to the micro-unit (0.0125 → "0.012500"). */
export const amountText = (amount: number) => amount.toFixed(AMOUNT_DECIMALS);
