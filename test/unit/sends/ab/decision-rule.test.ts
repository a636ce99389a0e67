import { describe, expect, it } from 'vitest';
import type { VariantFigures } from '#lib/domain/sends/ab/ab-send.ts';
import { decideTest, significantlyApart, wilsonInterval } from '#lib/domain/sends/ab/decision-rule.ts';

/** A test-first send's decision (decisions §33, docs/ab-sends.md): the best rate wins; ties and no data by the rule. */
const AT = '2026-11-29T10:00:00.000Z';
const figures = (variant: number, delivered: number, read: number, replied = 0): VariantFigures => ({
  variant,
  sent: delivered,
  delivered,
  read,
  replied,
});
const two = [
  { weight: 1, name: 'promo_a (en_US)' },
  { weight: 1, name: 'promo_b (en_US)' },
];

describe('the 95 % interval and the significance test', () => {
  it('gives Wilson’s interval: 50 of 100 is 40.4 %–59.6 %, 0 of 10 starts at 0, none of none has none', () => {
    // Prepare / Act / Assess
    const [low, high] = wilsonInterval(50, 100)!;
    expect([low.toFixed(3), high.toFixed(3)]).toEqual(['0.404', '0.596']);
    expect(wilsonInterval(0, 10)?.[0]).toBe(0);
    expect(wilsonInterval(10, 10)?.[1]).toBe(1);
    expect(wilsonInterval(0, 0)).toBeUndefined();
  });

  it('calls 60 of 100 against 40 of 100 significant at 95 %, and 55 against 45 not', () => {
    // Prepare / Act / Assess: z = 2.83 and z = 1.41
    expect(significantlyApart({ successes: 60, trials: 100 }, { successes: 40, trials: 100 })).toBe(true);
    expect(significantlyApart({ successes: 55, trials: 100 }, { successes: 45, trials: 100 })).toBe(false);
    expect(significantlyApart({ successes: 5, trials: 5 }, { successes: 0, trials: 0 })).toBe(false);
    expect(significantlyApart({ successes: 0, trials: 50 }, { successes: 0, trials: 50 })).toBe(false);
  });
});

describe('the decision (decisions §33)', () => {
  it('picks the best read rate over delivered, significant when it is, with each variant’s rate and interval', () => {
    // Prepare: B reads 60 of 100 delivered, A 40 of 100
    const counts = [figures(0, 100, 40), figures(1, 100, 60)];
    // Act
    const decision = decideTest('read', counts, two, AT);
    // Assess
    expect(decision).toMatchObject({ winner: 1, rule: 'best_rate', significant: true, metric: 'read', decided_at: AT });
    expect(decision.variants.map((v) => v.rate)).toEqual([0.4, 0.6]);
    expect(decision.variants[1].interval?.[0]).toBeGreaterThan(0.5);
    expect(decision.reason).toMatch(
      /^promo_b \(en_US\) won: the best read rate, significantly better than the next at 95 %\. promo_b \(en_US\) 60\.0 %/,
    );
  });

  it('decides by the metric asked: replies, where reads would pick the other', () => {
    // Prepare: A is read more, B replied to more
    const counts = [figures(0, 200, 150, 10), figures(1, 200, 100, 30)];
    // Act / Assess
    expect(decideTest('replied', counts, two, AT)).toMatchObject({ winner: 1, significant: true });
    expect(decideTest('read', counts, two, AT)).toMatchObject({ winner: 0, significant: true });
  });

  it('says when the best is not significantly better (a small test)', () => {
    // Prepare / Act
    const decision = decideTest('read', [figures(0, 10, 5), figures(1, 10, 6)], two, AT);
    // Assess
    expect(decision).toMatchObject({ winner: 1, rule: 'best_rate', significant: false });
    expect(decision.reason).toContain('not significantly better');
  });

  it('breaks a tie by more delivered, then by the heavier weight, then by the order listed', () => {
    // Prepare / Act / Assess
    expect(decideTest('read', [figures(0, 10, 5), figures(1, 20, 10)], two, AT)).toMatchObject({
      winner: 1,
      rule: 'tie',
      significant: false,
    });
    const heavierA = [
      { weight: 3, name: 'a' },
      { weight: 1, name: 'b' },
    ];
    expect(decideTest('read', [figures(0, 20, 10), figures(1, 20, 10)], heavierA, AT)).toMatchObject({ winner: 0, rule: 'tie' });
    expect(decideTest('read', [figures(0, 20, 10), figures(1, 20, 10)], two, AT)).toMatchObject({ winner: 0, rule: 'tie' });
  });

  it('with nothing delivered picks the heaviest weight, the first listed among equals; a variant with no data never beats one with', () => {
    // Prepare
    const none = [figures(0, 0, 0), figures(1, 0, 0), figures(2, 0, 0)];
    const weights = [
      { weight: 1, name: 'a' },
      { weight: 5, name: 'b' },
      { weight: 5, name: 'c' },
    ];
    // Act
    const noData = decideTest('replied', none, weights, AT);
    const someData = decideTest('read', [figures(0, 3, 0), figures(1, 0, 0), figures(2, 0, 0)], weights, AT);
    // Assess
    expect(noData).toMatchObject({ winner: 1, rule: 'no_data', significant: false });
    expect(noData.variants.every((v) => v.rate === undefined && v.interval === undefined)).toBe(true);
    expect(someData).toMatchObject({ winner: 0, rule: 'best_rate', significant: false });
  });

  it('is the same decision for the same figures (a decision made twice is one decision)', () => {
    // Prepare
    const counts = [figures(0, 137, 51, 7), figures(1, 141, 49, 12)];
    // Act / Assess
    expect(decideTest('replied', counts, two, AT)).toEqual(decideTest('replied', counts, two, AT));
  });

  it('decides by clicks where Meta’s analytics gave them; a variant without any is no data, not a rate of 0', () => {
    // Prepare
    const both = [
      { ...figures(0, 100, 50), clicked: 10 },
      { ...figures(1, 100, 50), clicked: 30 },
    ];
    const one = [{ ...figures(0, 100, 50), clicked: 0 }, figures(1, 100, 50)];
    // Act
    const byClicks = decideTest('clicked', both, two, AT);
    const withOne = decideTest('clicked', one, two, AT);
    const withNone = decideTest('clicked', [figures(0, 100, 50), figures(1, 100, 50)], two, AT);
    // Assess
    expect(byClicks).toMatchObject({ winner: 1, rule: 'best_rate', significant: true });
    expect(withOne).toMatchObject({ winner: 0, rule: 'best_rate', significant: false });
    expect(withOne.variants[1].rate).toBeUndefined();
    expect(withNone).toMatchObject({ winner: 0, rule: 'no_data', significant: false });
  });
});
