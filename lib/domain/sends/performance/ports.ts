import type { ServiceEvent } from '../../webhooks/events.ts';
import type { SendRecord } from '../ports.ts';
import type { Figure, FigureAdd, MessageReply, TemplateOfFigures } from '../figures.ts';

// What a send's and a template's performance are read from, and how the inbound path finds and records replies
// (decisions §33; the items in docs/data-model.md).

/** A send with its figures as kept: the send item and its count shards, read together. */
export interface SendFigures {
  send: SendRecord;
  figures: FigureAdd[];
}

/** A send's figures (decisions §33): written by the dispatcher, the status path and the inbound path. */
export interface SendPerformances {
  /** The send and its figures in one read (its item and count shards); null when there is no such send. */
  read(sendId: string): Promise<SendFigures | null>;
}

/** A client's template's figures of one day (its WABA's day), summed. */
export interface TemplateDayFigures {
  day: string;
  waba_id: string;
  name: string;
  language: string;
  figures: Partial<Record<Figure, number>>;
  /** The currencies of its cost and price, where it has any. */
  currency?: string;
  price_currency?: string;
}

/** A client's templates' figures by day, kept beside each send's (decisions §33). */
export interface TemplatePerformances {
  /** Every template's figures of each day from `from` to `to` (days as `YYYY-MM-DD`, both included). */
  days(clientId: number, from: string, to: string): Promise<TemplateDayFigures[]>;
}

/** One of a number's sends' messages to a person, as the inbound path reads it. */
export interface SentMessage {
  send_id: string;
  /** The first position of its block, and its own. */
  block: number;
  index: number;
  /** Meta's id of the message (an inbound reply's `context.id`); absent while its block has no answer for it. */
  message_id?: string;
  variant: number;
  /** Its send's client and its variant's template. */
  client_id: number;
  template: { name: string; language: string };
  /** When Meta delivered it (epoch ms), where a delivery was reported. */
  delivered_at?: number;
  /** Its reply as read: the condition of the write that changes it. */
  reply: MessageReply;
}

/** A reply to record: the message as read, its reply now, and what that adds to its send's and template's figures. */
export interface ReplyRecord {
  message: SentMessage;
  reply: MessageReply;
  figures: FigureAdd[];
  template: TemplateOfFigures;
}

/** The sends' messages by person, for the replies to them (decisions §33). */
export interface Replies {
  /**
   * The messages the sends of number `did` sent to this person (by phone number or BSUID, as the send named them),
   * of sends accepted since `sinceMs`, newest send first: at most REPLY_CANDIDATES of them.
   */
  sentTo(did: string, person: { phone?: string; user_id?: string }, sinceMs: number): Promise<SentMessage[]>;
  /** The reply and its figures in one write, on condition the message's reply is still as read; false when it moved. */
  record(record: ReplyRecord): Promise<boolean>;
}

/** The most of a person's messages a reply looks among: the newest sends' first. */
export const REPLY_CANDIDATES = 20;

/** A send's completion (decisions §33): its `send.completed` event, once. */
export interface SendCompletions {
  /** Marks the send completed with its event in the outbox, in one write; false when it was marked before. */
  complete(sendId: string, event: ServiceEvent): Promise<boolean>;
}
