import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_WORDS_PER_VARIABLE, reviewWarnings, wordsOutsideVariables } from '#lib/domain/templates/rules/review.ts';

/** One rule at a time, each with the text that trips it and one that does not (decisions §18). */
const body = (text: string, extra: Record<string, unknown>[] = []) => [{ type: 'BODY', text }, ...extra];
const rules = (text: string) => reviewWarnings(body(text)).map((w) => w.rule);

describe('review warnings', () => {
  it.each([
    ['leading_variable', '{{1}}, your order is ready to collect', 'Hi {{1}}, your order is ready to collect'],
    ['trailing_variable', 'Your order is ready to collect, {{1}}.', 'Your order {{1}} is ready to collect now'],
    ['adjacent_variables', 'Your order {{1}} {{2}} is ready to collect', 'Your order {{1}} for {{2}} is ready to collect'],
    ['too_many_variables', 'Order {{1}} for {{2}} at {{3}}', 'Your order {{1}} is ready to collect at the store'],
  ])('%s: warns for the one, not for the other', (rule, bad, good) => {
    expect(rules(bad)).toContain(rule);
    expect(rules(good)).not.toContain(rule);
  });

  it('names the component path, and looks into carousel card bodies', () => {
    const warnings = reviewWarnings([
      { type: 'HEADER', format: 'TEXT', text: 'Hi' },
      { type: 'BODY', text: 'Good news for you today' },
      { type: 'CAROUSEL', cards: [{ components: [{ type: 'BODY', text: '{{1}} off today only for you' }] }] },
    ]);
    expect(warnings).toEqual([
      { rule: 'leading_variable', path: 'components[2].cards[0].components[0].text', message: expect.any(String) },
    ]);
  });

  it('warns when the body and footer read as another template of the WABA, whatever the spacing and case', () => {
    const mine = body('Your order {{1}} is ready to collect', [{ type: 'FOOTER', text: 'Thanks' }]);
    const other = {
      name: 'order_ready',
      language: 'en_US',
      components: body('your order  {{1}} is ready to collect', [{ type: 'FOOTER', text: 'thanks' }]),
    };
    expect(reviewWarnings(mine, [other]).map((w) => w.rule)).toEqual(['duplicate_wording']);
    const otherFooter = { ...other, components: body('Your order {{1}} is ready to collect', [{ type: 'FOOTER', text: 'Bye' }]) };
    expect(reviewWarnings(mine, [otherFooter])).toEqual([]);
  });

  it(`flags too many variables exactly when there are fewer than ${MIN_WORDS_PER_VARIABLE} words per variable (generated)`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 30 }), (variables, words) => {
        // Words first, then variables each followed by a word where words remain: never leading or adjacent by construction.
        const parts = ['Hello'];
        for (let i = 1; i <= variables; i++) parts.push(`{{${i}}}`, 'and');
        const filler = Array.from({ length: Math.max(0, words - variables - 1) }, () => 'word');
        const text = [...parts, ...filler].join(' ');
        const counted = wordsOutsideVariables(text);
        expect(rules(text).includes('too_many_variables')).toBe(counted < variables * MIN_WORDS_PER_VARIABLE);
      }),
    );
  });

  it('gives a clean template none', () => {
    expect(reviewWarnings(body('Hi {{1}}, your order {{2}} is ready to collect at the store.'))).toEqual([]);
  });
});
