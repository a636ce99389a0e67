import { describe, expect, it } from 'vitest';
import { buttonsText, comparisonText, lastDays, rateText, templatesChart } from '../../../console/src/pages/performance-data.ts';

/** The performance's figures as the console shows them (decisions §33), from the API's answers, without a browser. */
const row = (
  day: string,
  template: string,
  figures: Partial<Record<'sent' | 'delivered' | 'read' | 'replied' | 'clicks', number>>,
  waba = 'w1',
) => ({
  day,
  waba_id: waba,
  template,
  language: 'en_US',
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  failed_by_code: {},
  replied: 0,
  replied_after: 0,
  buttons: {},
  button_replies: 0,
  ...figures,
});

describe('the performance’s words', () => {
  it('gives a rate with its interval, buttons most first, and a dash where there is none', () => {
    // Act, Assess
    expect(rateText({ rate: 0.18, low: 0.157427, high: 0.205022 })).toBe('18.0 % (15.7–20.5 %)');
    expect(rateText(undefined)).toBe('—');
    expect(buttonsText({ No: 50, Yes: 100 })).toBe('Yes 100, No 50');
    expect(buttonsText({})).toBe('—');
    expect(lastDays(new Date('2026-11-29T23:00:00Z'), 7)).toEqual({ from: '2026-11-23', to: '2026-11-29' });
  });

  it('says which variant is best and whether it differs, or that there are too few deliveries', () => {
    // Prepare
    const variants = [0, 1].map((v) => ({ variant: v, template: { name: `t${v}`, language: 'en' } }));
    const comparison = (best?: number) => ({
      test: 'two_proportion_z' as const,
      alpha: 0.05,
      ...(best !== undefined && { best }),
      significant: best !== undefined,
      against: best === undefined ? [] : [{ variant: 0, z: 2.9, p_value: 0.004, significant: true }],
    });
    // Act
    const clear = comparisonText({ variants, comparison: { read: comparison(1), replied: comparison() } } as never, 'read');
    const few = comparisonText({ variants, comparison: { read: comparison(1), replied: comparison() } } as never, 'replied');
    const one = comparisonText({ variants: variants.slice(0, 1) } as never, 'read');
    // Assess
    expect(clear).toBe('Best read rate: 2: t1 (en), significantly better than every other (1: t0 (en): p = 0.004, significant).');
    expect(few).toBe("Too few deliveries to compare the variants' reply rates.");
    expect(one).toBeUndefined();
  });
});

describe('the templates’ chart', () => {
  it('stacks a figure by template a day, naming a template’s WABA where two share its name', () => {
    // Prepare
    const data = [
      row('2026-11-28', 'promo', { replied: 3 }),
      row('2026-11-29', 'promo', { replied: 2 }),
      row('2026-11-29', 'promo', { replied: 1 }, 'w2'),
      row('2026-11-29', 'receipt', { replied: 4 }),
    ];
    // Act
    const chart = templatesChart({ data } as never, 'replied');
    // Assess
    expect(chart.days).toEqual(['2026-11-28', '2026-11-29']);
    expect(chart.series.map((s) => [s.label, s.values, s.total])).toEqual([
      ['promo (en_US) of w1', [3, 2], 5],
      ['promo (en_US) of w2', [0, 1], 1],
      ['receipt (en_US)', [0, 4], 4],
    ]);
  });
});
