import * as v from 'valibot';

/** Direct Send's part of the send route's body (issue 55 item 2, docs/platform-2027.md §2). */

/** A Direct Send's message (docs/platform-2027.md §2): Meta's free-form text body, at most 1024 characters. */
export const DirectMessage = v.strictObject({
  type: v.literal('text', 'must be text'),
  text: v.strictObject({
    body: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(1024, 'is at most 1024 characters')),
  }),
});

/**
 * Exactly one of a template, an A/B send's variants (decisions §33), or a Direct Send's category and message (issue
 * 55 item 2), each a 400 naming its field; a test first only with variants.
 */
type SendShape = { template?: unknown; category?: unknown; message?: unknown; variants?: unknown; test?: unknown };
export function oneWayToSend<T extends v.GenericSchema<unknown, SendShape>>(fields: T) {
  type Out = v.InferOutput<T>;
  const rule = (ok: (b: SendShape) => boolean, message: string, field: 'template' | 'message' | 'variants' | 'test') =>
    v.forward(v.check<Out, string>(ok, message), [field] as never);
  return v.pipe(
    fields,
    rule(
      (b) => b.template !== undefined || b.category !== undefined || b.variants !== undefined,
      'is required (or variants, or category and message: a Direct Send)',
      'template',
    ),
    rule(
      (b) => b.template === undefined || (b.category ?? b.message) === undefined,
      'not with category or message: one or the other',
      'template',
    ),
    rule((b) => b.variants === undefined || b.template === undefined, 'not with template: one or the other', 'variants'),
    rule((b) => b.variants === undefined || (b.category ?? b.message) === undefined, 'not with a Direct Send', 'variants'),
    rule((b) => b.test === undefined || b.variants !== undefined, 'only with variants (an A/B send)', 'test'),
    rule((b) => b.category === undefined || b.message !== undefined, 'is required with category (a Direct Send)', 'message'),
    rule((b) => b.message === undefined || b.category !== undefined, 'only with category (a Direct Send)', 'message'),
  );
}
