import { randomBytes } from 'node:crypto';
import { parseMessageReference } from '#lib/domain/shared/message-status.ts';
import type { GraphModel, SentMessage } from './model.ts';
import type { MetaNotifier } from './notifier.ts';
import type { EmulatedPeople } from './people.ts';
import { targetOf } from './recipients.ts';

type Answer = { status: number; body: unknown };

/** What the reply control reads and changes: the messages sent, the people, Meta's webhooks, the pricing's books. */
interface ReplyContext {
  model: GraphModel;
  people: EmulatedPeople;
  notifier?: MetaNotifier;
  inboundAt: (numberId: string, phone: string) => void;
}

/** A reply as a test asks for it: a quick-reply button's payload (and label), or a text; by context or not. */
interface ReplyAsked {
  button?: { payload: string; text: string };
  text?: string;
  /** Whether the reply quotes the message (`context.id`, as a swipe reply and every button press do). */
  context: boolean;
  /** Meta's time of the reply, epoch seconds (now unless given). */
  at: number;
}

/**
 * `POST /_emulator/replies` (decisions §33): the emulator's users answer a send's messages, as Meta delivers a
 * person's message (docs/template-analytics.md §2): a `button` message with its payload and label, or a text, each
 * quoting the message it answers in `context` ({from: the business number, id: the message's id}); with
 * `"context": false`, a text that quotes nothing (a person writing after a template). Which messages: those of
 * `send_id` (the reference each carries), to the recipients `to` names, or `count` of them from `skip` (every
 * `every`-th, 1 unless given), in the send's order. One webhook a reply; the answer lists each reply's message id and the message it answers.
 */
export function replyControl(ctx: ReplyContext, method: string, path: string, body: Record<string, unknown>): Answer | undefined {
  if (method !== 'POST' || path !== '/_emulator/replies') return undefined;
  const asked = replyAsked(body);
  if (typeof asked === 'string') return { status: 400, body: { error: asked } };
  const chosen = messagesChosen(ctx.model, body);
  if (typeof chosen === 'string') return { status: 400, body: { error: chosen } };
  if (!ctx.notifier) return { status: 409, body: { error: 'no webhook target configured' } };
  const replies = chosen.map((message) => reply(ctx, message, asked));
  return { status: 200, body: { replies } };
}

function replyAsked(body: Record<string, unknown>): ReplyAsked | string {
  const button = body.button as { payload?: unknown; text?: unknown } | undefined;
  if (button !== undefined && (typeof button !== 'object' || button === null || typeof button.payload !== 'string'))
    return 'button must be {"payload": "...", "text"?: "..."}';
  if (button === undefined && typeof body.text !== 'string') return 'a button or a text is required';
  if (body.at !== undefined && !Number.isSafeInteger(body.at)) return 'at must be epoch seconds';
  if (button && body.context === false) return 'a button press always quotes its message';
  return {
    ...(button && {
      button: { payload: String(button.payload), text: typeof button.text === 'string' ? button.text : String(button.payload) },
    }),
    ...(typeof body.text === 'string' && { text: body.text }),
    context: body.context !== false,
    at: typeof body.at === 'number' ? body.at : Math.floor(Date.now() / 1000),
  };
}

/** The send's messages a reply answers, in the send's order: to the recipients named, or `count` from `skip`, every `every`-th. */
function messagesChosen(model: GraphModel, body: Record<string, unknown>): SentMessage[] | string {
  if (typeof body.send_id !== 'string') return 'send_id is required';
  const ofSend = model.sent
    .map((message) => ({ message, reference: parseMessageReference(message.message.biz_opaque_callback_data) }))
    .filter(({ reference }) => reference?.sendId === body.send_id)
    .sort((a, b) => (a.reference?.index ?? 0) - (b.reference?.index ?? 0))
    .map(({ message }) => message);
  if (Array.isArray(body.to)) {
    const wanted = new Set(body.to.map((to) => String(to).replace(/\D/g, '')));
    return ofSend.filter((message) => wanted.has(String(targetOf(message.message).to ?? '').replace(/\D/g, '')));
  }
  const [skip, count, every] = [Number(body.skip ?? 0), Number(body.count ?? ofSend.length), Number(body.every ?? 1)];
  if (![skip, count, every].every((n) => Number.isSafeInteger(n) && n >= 0) || every === 0)
    return 'skip, count and every must be whole numbers (every at least 1)';
  // Every `every`-th message from `skip`: replies spread over the send, as a campaign's are.
  return ofSend.filter((_, i) => i >= skip && (i - skip) % every === 0).slice(0, count);
}

/** One person's reply to one message: its webhook sent, the person counted as having written to the number. */
function reply(ctx: ReplyContext, message: SentMessage, asked: ReplyAsked) {
  const number = ctx.model.phoneNumbers.get(message.phone_number_id);
  const display = number?.display_phone_number ?? message.phone_number_id;
  const { to, user_id } = targetOf(message.message);
  const user = ctx.people.userOf(to ? { phone: to.replace(/\D/g, '') } : { user_id });
  const shared = ctx.people.phoneShared(message.phone_number_id, user);
  const id = `wamid.reply.${randomBytes(6).toString('hex')}`;
  const content = asked.button ? { type: 'button', button: asked.button } : { type: 'text', text: { body: asked.text } };
  ctx.notifier?.notify(number?.waba_id ?? '', 'messages', {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: display, phone_number_id: message.phone_number_id },
    contacts: [ctx.people.contactOf(message.phone_number_id, user, true)],
    messages: [
      {
        ...(shared && { from: user.phone }),
        from_user_id: user.user_id,
        id,
        timestamp: String(asked.at),
        ...(asked.context && { context: { from: display, id: message.id } }),
        ...content,
      },
    ],
  });
  if (user.phone) ctx.inboundAt(message.phone_number_id, user.phone);
  ctx.people.talked(message.phone_number_id, user);
  return { to: user.phone ?? user.user_id, message_id: id, ...(asked.context && { context_id: message.id }) };
}
