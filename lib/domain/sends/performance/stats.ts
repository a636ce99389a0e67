/*
 * The statistics of a performance (decisions §33, docs/performance.md): a rate's 95 % interval by Wilson's score
 * method, and whether two variants' rates differ by the two-proportion z-test (pooled, two-sided, at 5 %).
 */

/** The normal distribution's 97.5th percentile: a two-sided 95 % interval. */
export const Z_95 = 1.959963984540054;
/** A difference is significant below this p-value. */
export const ALPHA = 0.05;

export interface RateInterval {
  rate: number;
  low: number;
  high: number;
}

/**
 * A proportion with its 95 % Wilson score interval (Wilson 1927): unlike the normal approximation it stays within
 * 0–1 and holds for small counts and for rates near 0 or 1. Undefined with no trials.
 */
export function wilson(successes: number, trials: number, z = Z_95): RateInterval | undefined {
  if (trials <= 0) return undefined;
  const p = Math.min(1, Math.max(0, successes / trials));
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { rate: round(p), low: round(Math.max(0, centre - half)), high: round(Math.min(1, centre + half)) };
}

/** The standard normal distribution function, by Abramowitz and Stegun's 7.1.26 (error below 1.5e-7). */
export function normalCdf(x: number) {
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

export interface ProportionTest {
  z: number;
  p_value: number;
  significant: boolean;
}

/**
 * Whether two proportions differ: the two-proportion z-test with the pooled proportion, two-sided. Undefined where
 * it cannot be made (a side without trials, or no variation at all).
 */
export function twoProportionTest(
  a: { successes: number; trials: number },
  b: { successes: number; trials: number },
): ProportionTest | undefined {
  if (a.trials <= 0 || b.trials <= 0) return undefined;
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  const error = Math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials));
  if (error === 0) return undefined;
  const z = (a.successes / a.trials - b.successes / b.trials) / error;
  const p = Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));
  return { z: round(z), p_value: round(p), significant: p < ALPHA };
}

/** Six decimals: a rate or statistic as the answer gives it. */
const round = (x: number) => Math.round(x * 1e6) / 1e6;
