import { describe, expect, it } from 'vitest';
import { abPersonKey, inTestShare, seedOf, unitOf, variantOf } from '#lib/domain/sends/ab/variant-hash.ts';

/**
 * A person's variant (decisions §33): a seeded hash of the person onto the weights. Deterministic, so these counts
 * are the same every run; the tolerance is about four standard deviations of the binomial count at 10,000 people
 * (0.25 × 0.75 × 10,000 → σ ≈ 43), so a hash that did not follow the weights would fail it.
 */
const PEOPLE = Array.from({ length: 10_000 }, (_, i) => `p:5215${String(i).padStart(8, '0')}`);
const A = { name: 'promo_a', language: 'en_US' };
const B = { name: 'promo_b', language: 'en_US' };
const C = { name: 'promo_c', language: 'es' };

const countsOf = (seed: string, variants: { name: string; language: string; weight: number }[]) => {
  const counts = variants.map(() => 0);
  for (const person of PEOPLE) counts[variantOf(seed, person, variants)] += 1;
  return counts;
};

describe('a person’s variant (decisions §33)', () => {
  it('follows the weights: 1:3 over 10,000 people gives 2,500 and 7,500 within 175', () => {
    // Prepare
    const variants = [
      { ...A, weight: 1 },
      { ...B, weight: 3 },
    ];
    // Act
    const counts = countsOf(seedOf(710, variants), variants);
    // Assess
    expect(Math.abs(counts[0] - 2_500)).toBeLessThan(175);
    expect(counts[0] + counts[1]).toBe(10_000);
  });

  it('follows three weights 2:3:5 and four equal ones, each within four standard deviations', () => {
    // Prepare
    const three = [
      { ...A, weight: 2 },
      { ...B, weight: 3 },
      { ...C, weight: 5 },
    ];
    const four = [...three, { name: 'promo_d', language: 'en_US', weight: 2 }].map((v) => ({ ...v, weight: 1 }));
    // Act
    const byThree = countsOf(seedOf(710, three), three);
    const byFour = countsOf(seedOf(710, four), four);
    // Assess: σ = √(n p (1−p)): 40, 46, 50 for three; 43 for each of four
    expect([2_000, 3_000, 5_000].map((expected, i) => Math.abs(byThree[i] - expected) < 4 * 50)).toEqual([true, true, true]);
    expect(byFour.map((n) => Math.abs(n - 2_500) < 4 * 44)).toEqual([true, true, true, true]);
  });

  it('is the same for a person in every send of the same variants, whatever order they are listed in', () => {
    // Prepare
    const listed = [
      { ...A, weight: 1 },
      { ...B, weight: 1 },
    ];
    const reversed = [listed[1], listed[0]];
    // Act
    const first = PEOPLE.map((p) => listed[variantOf(seedOf(710, listed), p, listed)].name);
    const again = PEOPLE.map((p) => listed[variantOf(seedOf(710, listed), p, listed)].name);
    const otherOrder = PEOPLE.map((p) => reversed[variantOf(seedOf(710, reversed), p, reversed)].name);
    // Assess
    expect(again).toEqual(first);
    expect(otherOrder).toEqual(first);
    expect(seedOf(710, reversed)).toBe(seedOf(710, listed));
  });

  it('differs between clients and between sets of variants (the seed), and moves only people at a boundary when a weight changes', () => {
    // Prepare
    const even = [
      { ...A, weight: 1 },
      { ...B, weight: 1 },
    ];
    const heavier = [
      { ...A, weight: 1 },
      { ...B, weight: 2 },
    ];
    // Act
    const mine = PEOPLE.map((p) => variantOf(seedOf(710, even), p, even));
    const theirs = PEOPLE.map((p) => variantOf(seedOf(711, even), p, even));
    const moved = PEOPLE.filter((p, i) => variantOf(seedOf(710, heavier), p, heavier) !== mine[i]);
    // Assess: another client's hash agrees by chance on about half; a heavier B takes people from A only (1/2 → 1/3)
    expect(theirs.filter((v, i) => v === mine[i]).length).toBeLessThan(5_300);
    expect(moved.every((p) => variantOf(seedOf(710, heavier), p, heavier) === 1)).toBe(true);
    expect(Math.abs(moved.length - 10_000 / 6)).toBeLessThan(200);
  });

  it('chooses a test share of about `share` of the people, stable and independent of the variant', () => {
    // Prepare
    const variants = [
      { ...A, weight: 1 },
      { ...B, weight: 1 },
    ];
    const seed = seedOf(710, variants);
    // Act
    const tested = PEOPLE.filter((p) => inTestShare(seed, p, 0.2));
    const testedA = tested.filter((p) => variantOf(seed, p, variants) === 0).length;
    // Assess: 20 % of 10,000 (σ = 40), half of them on each variant (σ ≈ 32)
    expect(Math.abs(tested.length - 2_000)).toBeLessThan(160);
    expect(Math.abs(testedA - tested.length / 2)).toBeLessThan(130);
    expect(PEOPLE.filter((p) => inTestShare(seed, p, 0.2))).toEqual(tested);
    expect(unitOf(seed, 'test', PEOPLE[0])).toBeGreaterThanOrEqual(0);
  });

  it('takes a person by their number, or a BSUID alone by the number the people map pairs with it', () => {
    // Prepare
    const pairs = new Map([['u:US.abc123', { phone: '15551234567', user_id: 'US.abc123' }]]);
    // Act / Assess
    expect(abPersonKey({ to: '+1 555 123 4567' })).toBe('p:15551234567');
    expect(abPersonKey({ user_id: 'US.abc123' }, pairs)).toBe('p:15551234567');
    expect(abPersonKey({ user_id: 'US.abc123' })).toBe('u:US.abc123');
    expect(abPersonKey({ to: '15551234567', user_id: 'US.zzz' }, pairs)).toBe('p:15551234567');
  });
});
