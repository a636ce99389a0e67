import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTemplateDraft } from '#lib/domain/templates/rules/draft.ts';
import { normalizeComponents } from '#lib/domain/templates/rules/changes.ts';
import { templateNeeds } from '#lib/domain/sends/accept/send-rules.ts';

/**
 * The rules read the upstream's own shapes loosely, so any JSON may reach them: whatever arrives, they answer
 * with problems, never an exception (an exception would be a 500).
 */
const anyComponent = fc.oneof(
  fc.jsonValue(),
  fc.record({ type: fc.constantFrom('HEADER', 'BODY', 'FOOTER', 'BUTTONS', 'CAROUSEL', 'LIMITED_TIME_OFFER'), text: fc.jsonValue() }),
  fc.record({
    type: fc.constant('CAROUSEL'),
    cards: fc.array(fc.oneof(fc.jsonValue(), fc.record({ components: fc.array(fc.jsonValue(), { maxLength: 4 }) })), { maxLength: 4 }),
  }),
  fc.record({
    type: fc.constant('BUTTONS'),
    buttons: fc.array(fc.oneof(fc.jsonValue(), fc.record({ type: fc.string(), supported_apps: fc.jsonValue() }))),
  }),
);

describe('template rules on any input', () => {
  it('report problems and never throw', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('MARKETING', 'UTILITY', 'AUTHENTICATION'),
        fc.array(anyComponent, { maxLength: 6 }),
        (category, components) => {
          const { problems } = checkTemplateDraft({ category, components: components as Record<string, unknown>[] });
          expect(Array.isArray(problems)).toBe(true);
          normalizeComponents(components);
          templateNeeds({
            id: '1',
            name: 'n',
            language: 'en',
            status: 'APPROVED',
            category,
            components: components as Record<string, unknown>[],
          });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuse a null card component with a path, not an exception (a reproduced 500)', () => {
    const { problems } = checkTemplateDraft({
      category: 'MARKETING',
      components: [
        { type: 'BODY', text: 'Hi' },
        { type: 'CAROUSEL', cards: [{ components: [null] }, { components: [null] }] },
      ],
    });
    expect(problems.map((p) => p.path)).toContain('components[1].cards[0].components[0]');
  });
});
