import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normalCdf, twoProportionTest, wilson } from '#lib/domain/sends/performance/stats.ts';
import { compared } from '#lib/domain/sends/performance/send-performance.ts';
import { sumsOf } from '#lib/domain/sends/performance/figure-sums.ts';

/** The statistics of a performance (decisions §33, docs/performance.md): Wilson's interval and the two-proportion z-test. */
describe('a rate’s 95 % interval (Wilson)', () => {
  it('matches the published values, stays within 0–1 and holds the rate', () => {
    // Prepare, Act
    const eight = wilson(8, 10)!;
    const none = wilson(0, 50)!;
    // Assess: 8 of 10 is 0.490–0.943; 0 of 50 is 0–0.071 (the score interval's formula: z²/(n + z²) for none)
    expect(eight.low).toBeCloseTo(0.4902, 3);
    expect(eight.high).toBeCloseTo(0.9433, 3);
    expect(none).toEqual({ rate: 0, low: 0, high: expect.closeTo(0.0714, 3) });
    expect(wilson(3, 0)).toBeUndefined();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (trials, share) => {
        const successes = Math.floor(trials * share);
        const interval = wilson(successes, trials)!;
        return interval.low >= 0 && interval.high <= 1 && interval.low <= interval.rate + 1e-6 && interval.rate <= interval.high + 1e-6;
      }),
    );
  });
});

describe('whether two variants differ (two-proportion z-test)', () => {
  it('finds 50 of 100 against 30 of 100 significant (z 2.89, p 0.004), and 50 against 45 not', () => {
    // Prepare, Act
    const clear = twoProportionTest({ successes: 50, trials: 100 }, { successes: 30, trials: 100 })!;
    const close = twoProportionTest({ successes: 50, trials: 100 }, { successes: 45, trials: 100 })!;
    // Assess
    expect(clear.z).toBeCloseTo(2.887, 2);
    expect(clear.p_value).toBeCloseTo(0.0039, 3);
    expect(clear.significant).toBe(true);
    expect(close.significant).toBe(false);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
  });

  it('names the best variant and tests it against each other one', () => {
    // Prepare
    const variant = (v: number, delivered: number, read: number) => ({
      variant: v,
      template: { name: `t${v}`, language: 'en' },
      sums: sumsOf([
        ['delivered', delivered],
        ['read', read],
      ]),
    });
    // Act
    const result = compared([variant(0, 100, 30), variant(1, 100, 50), variant(2, 0, 0)], 'read');
    // Assess
    expect(result).toMatchObject({ best: 1, significant: true, against: [{ variant: 0, significant: true }] });
  });
});
