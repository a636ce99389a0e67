import type { BillingCurrencies } from '../../money/ports.ts';
import { DAY_MS } from '../../shared/calendar.ts';
import type { Log } from '../../shared/log.ts';
import { BUTTON_LABEL_MAX, buttonFigure, eventDaysOf, FigureTally, type MessageReply } from '../figures.ts';
import type { Replies, SentMessage } from './ports.ts';

/*
 * Replies to the sends' messages (decisions §33): an inbound message whose `context.id` is one of a send's
 * messages replied to it; any other inbound message from its person within 24 h of its delivery is counted apart,
 * `replied_after`. Each message counts each once, and its first quick-reply button once, so a repeated inbound
 * message (Meta delivers webhooks more than once) counts nothing more. A message is counted replied or replied_after,
 * never both: a quote applied after its person's other message moves it (webhooks come in any order).
 */

/** A person's message to one of the numbers, as its replies read it. */
export interface InboundReply {
  waba_id: string;
  /** The number it reached (a DID). */
  number_digits: string;
  from?: string;
  user_id?: string;
  message_id: string;
  /** The message it answers (`context.id`), when it quotes one. */
  context_id?: string;
  /** A quick-reply button of a template (`type: button`): its label and payload. */
  button?: { text?: string; payload?: string };
  /** Meta's time (epoch ms). */
  at: number;
}

export interface ReplyDeps {
  replies: Replies;
  /** Each WABA's zone: a reply counts on its day there, as the ledger's days (decisions §31). */
  currencies?: BillingCurrencies;
  log: Log;
}

/** A reply is looked for among the sends of the last 35 days: as long as a send's messages are kept (RECIPIENT_DAYS). */
export const REPLY_LOOKBACK_MS = 35 * DAY_MS;
/** How long after its delivery any message of its person counts as `replied_after`. */
export const REPLIED_AFTER_MS = DAY_MS;
/** Tries of a reply's write when another reply of the message was written meanwhile. */
const TRIES = 3;

/** What the inbound message changes: `applied` when it counted as a reply, else why not. */
export async function applyReply(deps: ReplyDeps, n: InboundReply): Promise<'applied' | 'unchanged' | 'ignored'> {
  if (!n.from && !n.user_id) return 'ignored';
  const dayOf = await eventDaysOf(deps.currencies, n.waba_id);
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    const messages = await deps.replies.sentTo(n.number_digits, { phone: n.from, user_id: n.user_id }, n.at - REPLY_LOOKBACK_MS);
    const answer = replyOf(messages, n);
    if (!answer) return messages.length === 0 ? 'ignored' : 'unchanged';
    const figures = new FigureTally();
    const day = dayOf(n.at);
    const { message, reply } = answer;
    if (reply.replied_at !== message.reply.replied_at) figures.add(message.variant, day, 'replied', 1);
    const after = message.reply.replied_after_at;
    // A quote that came after the person's other message moves them from replied_after, on that message's day.
    if (after !== undefined && reply.replied_after_at === undefined) figures.add(message.variant, dayOf(after), 'replied_after', -1);
    else if (reply.replied_after_at !== after) figures.add(message.variant, day, 'replied_after', 1);
    if (reply.button && !message.reply.button) figures.add(message.variant, day, buttonFigure(reply.button.text), 1);
    const template = { client_id: message.client_id, waba_id: n.waba_id, ...message.template };
    if (await deps.replies.record({ message, reply, figures: figures.adds, template })) {
      deps.log.info('reply counted', { send_id: message.send_id, index: message.index, by_context: reply.replied_at !== undefined });
      return 'applied';
    }
  }
  return 'unchanged';
}

/**
 * The message an inbound message replies to and its reply now, or undefined when it changes none: the message its
 * `context.id` names (replied, and its first button); else the person's latest delivery of the last 24 h, not
 * replied to yet (replied_after).
 */
export function replyOf(messages: SentMessage[], n: InboundReply): { message: SentMessage; reply: MessageReply } | undefined {
  const quoted = n.context_id ? messages.find((m) => m.message_id === n.context_id) : undefined;
  if (quoted) {
    const label = (n.button?.text || n.button?.payload)?.slice(0, BUTTON_LABEL_MAX);
    const button = label && !quoted.reply.button ? { text: label, ...(n.button?.payload && { payload: n.button.payload }) } : undefined;
    if (quoted.reply.replied_at !== undefined && !button) return undefined;
    // Replied, whatever came first: a message is replied or replied_after, never both, in any order of arrival.
    const { replied_after_at: _counted, ...reply } = quoted.reply;
    return { message: quoted, reply: { ...reply, replied_at: quoted.reply.replied_at ?? n.at, ...(button && { button }) } };
  }
  const delivered = messages
    .filter((m) => m.delivered_at !== undefined && m.delivered_at <= n.at && n.at - m.delivered_at <= REPLIED_AFTER_MS)
    .sort((a, b) => (b.delivered_at ?? 0) - (a.delivered_at ?? 0));
  const latest = delivered[0];
  if (!latest || latest.reply.replied_at !== undefined || latest.reply.replied_after_at !== undefined) return undefined;
  return { message: latest, reply: { ...latest.reply, replied_after_at: n.at } };
}
