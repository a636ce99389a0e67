import * as v from 'valibot';

/*
 * What a person's message says besides who sent it (docs/template-analytics.md §2): a text's body (an opt-out or
 * opt-in keyword, decisions §25), the message it answers (`context.id`) and a template's quick-reply button
 * (`type: button`, its payload and label), which count as replies to a send's messages (decisions §33).
 */

const short = (max: number) => v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.maxLength(max));
/** A part of a message read on its own: a part not as Meta documents it is left out, the message kept. */
const part = <T extends v.GenericSchema>(schema: T) => v.optional(v.fallback(v.optional(schema), undefined));

const Answer = v.object({
  type: v.pipe(v.string(), v.maxLength(64)),
  text: part(v.object({ body: v.pipe(v.string(), v.maxLength(4096)) })),
  button: part(v.object({ payload: v.optional(short(1024)), text: v.optional(v.pipe(v.string(), v.maxLength(256))) })),
  /** A forwarded message's context has no id: it answers nothing. */
  context: part(v.object({ id: v.optional(v.pipe(v.string(), v.maxLength(256))) })),
});

/** Meta's own messages, no person's answer: a system change, an unsupported type, a first chat's welcome. */
const NOT_ANSWERS = new Set(['system', 'unsupported', 'request_welcome', 'errors']);

/** A person's message's text, the message it answers and its button; undefined for none of a person's, or a text without a body. */
export function answerOf(message: unknown) {
  const r = v.safeParse(Answer, message);
  if (!r.success || NOT_ANSWERS.has(r.output.type) || (r.output.type === 'text' && !r.output.text)) return undefined;
  const { text, button, context } = r.output;
  return {
    ...(text && { text: text.body }),
    ...(context?.id && { context_id: context.id }),
    ...(r.output.type === 'button' &&
      button && { button: { ...(button.text && { text: button.text }), ...(button.payload && { payload: button.payload }) } }),
  };
}
