import * as v from 'valibot';

/** Direct Send's part of the send route's body (issue 55 item 2, docs/platform-2027.md §2). */

/** Text of at most `max` characters, not empty (Direct Send's limits, docs/platform-2027.md §2: body 1024, header and footer 60, button 20). */
const textOf = (max: number) =>
  v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(max, `is at most ${max} characters`));
/** Where a media header is (Meta takes a `link` or an uploaded `id`; the service sends links): an https address. */
const link = v.pipe(
  v.string('must be a string'),
  v.url('must be an https URL'),
  v.startsWith('https://', 'must be an https URL'),
  v.maxLength(2048),
);
const media = v.strictObject({ link });

/** An interactive message's header (docs/platform-2027.md §2, Meta's "Media message headers"): text, or a linked image, video or document. */
const Header = v.variant(
  'type',
  [
    v.strictObject({ type: v.literal('text'), text: textOf(60) }),
    v.strictObject({ type: v.literal('image'), image: media }),
    v.strictObject({ type: v.literal('video'), video: media }),
    v.strictObject({ type: v.literal('document'), document: v.strictObject({ link, filename: v.optional(textOf(240)) }) }),
  ],
  'must be text, image, video or document',
);
const parts = {
  header: v.optional(Header),
  body: v.strictObject({ text: textOf(1024) }),
  footer: v.optional(v.strictObject({ text: textOf(60) })),
};
const ReplyButton = v.strictObject({
  type: v.literal('reply', 'must be reply'),
  reply: v.strictObject({ id: textOf(256), title: textOf(20) }),
});
const distinct = (key: 'id' | 'title') =>
  v.check<v.InferOutput<typeof ReplyButton>[], string>(
    (buttons) => new Set(buttons.map((b) => b.reply[key])).size === buttons.length,
    `must have buttons of distinct ${key}s`,
  );
/** Reply buttons (1 to 3, Cloud API's interactive `button`), each id and title its own; or one call-to-action URL. */
const Interactive = v.variant(
  'type',
  [
    v.strictObject({
      type: v.literal('button'),
      ...parts,
      action: v.strictObject({
        buttons: v.pipe(
          v.array(ReplyButton),
          v.minLength(1, 'must have a button'),
          v.maxLength(3, 'has at most 3 buttons'),
          distinct('id'),
          distinct('title'),
        ),
      }),
    }),
    v.strictObject({
      type: v.literal('cta_url'),
      ...parts,
      action: v.strictObject({
        name: v.literal('cta_url', 'must be cta_url'),
        parameters: v.strictObject({ display_text: textOf(20), url: link }),
      }),
    }),
  ],
  'must be button or cta_url',
);

/**
 * A Direct Send's message (docs/platform-2027.md §2): what Meta's Direct Send takes of Cloud API's free-form messages,
 * a text (body at most 1024 characters) or an interactive message with reply buttons or a call-to-action URL, with
 * a text, image, video or document header. A standalone image, video, document, audio or other type is not Direct
 * Send's (Meta: "Other media formats" not supported): refused naming `message.type`.
 */
export const DirectMessage = v.variant(
  'type',
  [
    v.strictObject({ type: v.literal('text'), text: v.strictObject({ body: textOf(1024) }) }),
    v.strictObject({ type: v.literal('interactive'), interactive: Interactive }),
  ],
  'must be text or interactive (Direct Send takes no standalone media)',
);

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
