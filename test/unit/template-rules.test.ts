import { describe, expect, it } from 'vitest';
import { countryOfDid } from '#lib/domain/templates/create-template.ts';
import { authenticationComponents } from '#lib/domain/templates/rules/authentication.ts';
import { normalizeComponents } from '#lib/domain/templates/rules/changes.ts';
import { checkTemplateDraft } from '#lib/domain/templates/rules/draft.ts';
import { placeholders } from '#lib/domain/templates/rules/placeholders.ts';

const paths = (draft: Parameters<typeof checkTemplateDraft>[0]) => checkTemplateDraft(draft).problems.map((p) => p.path);

describe('template rules', () => {
  it('finds positional and named placeholders and unbalanced braces', () => {
    expect(placeholders('a {{1}} b {{ 2 }}')).toEqual({ positions: [1, 2], named: [], malformed: false });
    expect(placeholders('{{name}} {{1}')).toMatchObject({ named: ['name'], malformed: true });
  });

  it('accepts a complete UTILITY template', () => {
    expect(
      paths({
        category: 'UTILITY',
        components: [
          { type: 'header', format: 'text', text: 'Hi {{1}}', example: { header_text: ['Ana'] } },
          { type: 'BODY', text: '{{1}} and {{2}}', example: { body_text: [['a', 'b']] } },
          {
            type: 'BUTTONS',
            buttons: [
              { type: 'QUICK_REPLY', text: 'Yes' },
              { type: 'QUICK_REPLY', text: 'No' },
              { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+5215550001' },
            ],
          },
        ],
      }),
    ).toEqual([]);
  });

  it('refuses two bodies, a footer variable and more than ten buttons', () => {
    const problems = paths({
      category: 'MARKETING',
      components: [
        { type: 'BODY', text: 'a' },
        { type: 'BODY', text: 'b' },
        { type: 'FOOTER', text: 'x {{1}}' },
        { type: 'BUTTONS', buttons: Array.from({ length: 11 }, (_, i) => ({ type: 'QUICK_REPLY', text: `q${i}` })) },
      ],
    });
    expect(problems).toEqual(expect.arrayContaining(['components[1].type', 'components[2].text', 'components[3].buttons']));
  });

  it('checks carousels: 2 to 10 cards of the same shape, MARKETING only', () => {
    const card = (withBody: boolean) => ({
      components: [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::x'] } },
        ...(withBody ? [{ type: 'BODY', text: 'Card {{1}}', example: { body_text: [['1']] } }] : []),
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Buy' }] },
      ],
    });
    expect(
      paths({
        category: 'MARKETING',
        components: [
          { type: 'BODY', text: 'See' },
          { type: 'CAROUSEL', cards: [card(true), card(true)] },
        ],
      }),
    ).toEqual([]);
    expect(
      paths({
        category: 'MARKETING',
        components: [
          { type: 'BODY', text: 'See' },
          { type: 'CAROUSEL', cards: [card(true)] },
        ],
      }),
    ).toContain('components[1].cards');
    expect(
      paths({
        category: 'MARKETING',
        components: [
          { type: 'BODY', text: 'See' },
          { type: 'CAROUSEL', cards: [card(true), card(false)] },
        ],
      }),
    ).toContain('components[1].cards[1].components');
  });

  it('moves the AUTHENTICATION options into the body and a footer before the buttons', () => {
    const out = authenticationComponents([{ type: 'BODY' }, { type: 'BUTTONS', buttons: [] }], {
      add_security_recommendation: true,
      code_expiration_minutes: 7,
    });
    expect(out).toEqual([
      { type: 'BODY', add_security_recommendation: true },
      { type: 'FOOTER', code_expiration_minutes: 7 },
      { type: 'BUTTONS', buttons: [] },
    ]);
  });

  it('normalises components so spelling differences are no change, and real differences are', () => {
    const a = [{ type: 'BODY', text: 'Hi {{1}}', example: { body_text: [['x']] } }];
    const b = [{ example: { body_text: [['x']] }, text: ' Hi {{1}}', type: 'body', format: null }];
    expect(normalizeComponents(a)).toBe(normalizeComponents(b));
    expect(normalizeComponents(a)).not.toBe(normalizeComponents([{ ...a[0], text: 'Hello {{1}}' }]));
  });

  it('finds a DID’s country by its longest calling code', () => {
    expect(countryOfDid('5215550001')).toBe('MX');
    expect(countryOfDid('+593 99 123')).toBe('EC');
    expect(countryOfDid('15550100031')).toBe('US');
    expect(countryOfDid('999')).toBeUndefined();
  });
});
