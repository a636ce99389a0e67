import { billingOfWaba } from '../money/billing-currencies.ts';
import type { BillingCurrencies } from '../money/ports.ts';
import { dayIn, dayOf } from '../shared/calendar.ts';
import type { MessageState, StatusChange } from '../shared/message-status.ts';
import { DEFAULT_WABA_ZONE } from '../shared/meta-timezones.ts';
import type { DispatchJob } from './dispatch-job.ts';

/** The dispatcher's code of a launch whose answer never came (ports.ts LOST_OUTCOME): Meta may have sent it. */
const LOST_CODE = 'outcome_unknown';

/*
 * A send's performance (decisions §33): what happened to its messages, counted per template variant and per day
 * of the event, as the dispatcher, the status path and the inbound path see it happen. These are the counting
 * rules every store writes alike; the stores keep the sums (docs/data-model.md, docs/performance.md).
 */

/**
 * One figure of a variant's day. `sent`: messages Meta accepted (the dispatcher's outcome); `delivered`, `read`:
 * first reported that day; `failed:<code>`: failures by Meta's (or the dispatcher's) code, a failure taken back by
 * a later delivery taken back on the delivery's day; `replied`: messages an inbound message answered by its
 * `context.id`; `replied_after`: messages whose person wrote otherwise within 24 h of their delivery;
 * `button:<label>`: the first quick-reply button pressed on a message, by its label; `cost` and `price`: what its
 * deliveries were charged, in micro-units of the send's currency and of its client's price list.
 */
export type Figure =
  | 'sent'
  | 'delivered'
  | 'read'
  | 'replied'
  | 'replied_after'
  | 'cost'
  | 'price'
  | `failed:${string}`
  | `button:${string}`;

/** An amount added to one figure of one variant's day. */
export interface FigureAdd {
  /** The variant's place in the send's variants (0: the send's template, the one variant of a send without). */
  variant: number;
  /** The day of the event in the WABA's zone, as the ledger counts it (decisions §31). */
  day: string;
  figure: Figure;
  n: number;
}

/** Quick-reply button labels are at most 25 characters at Meta; a longer one is cut here, so items stay small. */
export const BUTTON_LABEL_MAX = 40;
export const buttonFigure = (label: string): Figure => `button:${label.slice(0, BUTTON_LABEL_MAX)}`;

/** Figures added up: one sum per variant, day and figure; a sum of 0 is left out. */
export class FigureTally {
  private readonly sums = new Map<string, FigureAdd>();

  add(variant: number, day: string, figure: Figure, n: number) {
    if (!n) return;
    const key = `${variant}|${day}|${figure}`;
    const known = this.sums.get(key) ?? { variant, day, figure, n: 0 };
    known.n += n;
    this.sums.set(key, known);
  }

  get adds(): FigureAdd[] {
    return [...this.sums.values()].filter(({ n }) => n !== 0);
  }
}

/** One status report as its figures see it: the change it makes, when Meta sent it and that day in the WABA's zone. */
export interface FiguredStatus {
  change: (state: MessageState) => StatusChange | null;
  /** Meta's time of the status (epoch ms). */
  at?: number;
  /** Its day in the WABA's zone (decisions §31); absent, its UTC day. */
  eventDay?: string;
}

/** A message of a status batch: its state before the batch, its reports in order, and its variant. */
export interface FiguredMessage {
  index: number;
  state: MessageState;
  statuses: FiguredStatus[];
  variant: number;
}

/**
 * What a batch of status reports adds to its send's figures, and when each message newly delivered was delivered
 * (Meta's time: the inbound path's 24 hours count from it). The reports are folded as the bill folds them
 * (billStatusBatch), so a report that changes nothing (a repeat, older news) adds nothing.
 */
export function statusFigures(messages: FiguredMessage[], now: number) {
  const tally = new FigureTally();
  const deliveredAt = new Map<number, number>();
  for (const { index, state: before, statuses, variant } of messages) {
    let state = before;
    for (const status of statuses) {
      const change = status.change(state);
      if (!change) continue;
      const day = status.eventDay ?? dayOf(status.at ?? now);
      tally.add(variant, day, 'delivered', change.counts.delivered ?? 0);
      tally.add(variant, day, 'read', change.counts.read ?? 0);
      for (const { code, count } of change.errors) {
        tally.add(variant, day, `failed:${code}`, count);
        // A launch whose answer never came, which Meta reports after all: it was sent (the dispatcher could not say).
        if (code === LOST_CODE && count < 0) tally.add(variant, day, 'sent', -count);
      }
      if (change.charge) {
        tally.add(variant, day, 'cost', change.charge.micros);
        tally.add(variant, day, 'price', change.charge.price?.micros ?? 0);
      }
      if (!state.delivered && change.next.delivered && !deliveredAt.has(index)) deliveredAt.set(index, status.at ?? now);
      state = change.next;
    }
  }
  return { tally, deliveredAt };
}

/**
 * Where a block's outcomes count (decisions §33): the day the dispatcher settled it in its WABA's zone, and its
 * variant (a job sends one template: its variant's).
 */
export interface PerformanceMark {
  day: string;
  variant: number;
  /** Whose and which template: the client's template figures (its day item) are keyed by them. */
  template: TemplateOfFigures;
}

/** A client's template as its figures are kept: the client, the WABA, the template's name and language. */
export interface TemplateOfFigures {
  client_id: number;
  waba_id: string;
  name: string;
  language: string;
  /** The currency of its send's cost (its WABA's) and of its price (its client's list), where it charges. */
  currency?: string;
  price_currency?: string;
}

/** What a block's outcomes add to its send's figures: each message Meta accepted, each refusal by its code. */
export function dispatchFigures(outcomes: readonly { kind: string; code?: string }[], mark: Pick<PerformanceMark, 'day' | 'variant'>) {
  const tally = new FigureTally();
  for (const outcome of outcomes) {
    if (outcome.kind === 'sent') tally.add(mark.variant, mark.day, 'sent', 1);
    else if (outcome.kind === 'failed') tally.add(mark.variant, mark.day, `failed:${outcome.code ?? 'unknown'}`, 1);
  }
  return tally;
}

/** A job's message's variant: the send's one template (A/B sends name theirs on the job, decisions §33). */
export const variantOfJob = (job: Pick<DispatchJob, 'variant'>) => job.variant ?? 0;

/** Where a job's block settled now counts: today in the WABA's zone (the job carries it), for the job's template. */
export function performanceMarkOf(
  job: Pick<DispatchJob, 'client_id' | 'waba_id' | 'template' | 'zone' | 'variant'>,
  nowMs: number,
): PerformanceMark {
  return {
    day: dayIn(nowMs, job.zone ?? DEFAULT_WABA_ZONE),
    variant: variantOfJob(job),
    template: { client_id: job.client_id, waba_id: job.waba_id, name: job.template.name, language: job.template.language },
  };
}

/**
 * The day of an event as the ledger counts it (decisions §31, §33): in its WABA's zone as kept (no Graph read on
 * the status or inbound path once the WABA is known), UTC where the WABA's zone cannot be read.
 */
export async function eventDaysOf(currencies: BillingCurrencies | undefined, wabaId: string | undefined): Promise<(at: number) => string> {
  const billing = wabaId && currencies ? await billingOfWaba(currencies, wabaId).catch(() => undefined) : undefined;
  const zone = billing?.zone ?? DEFAULT_WABA_ZONE;
  return (at: number) => dayIn(at, zone);
}

/** What a message's person answered, as kept (decisions §33): when, and the first quick-reply button pressed. */
export interface MessageReply {
  /** An inbound message answered it by its `context.id` (epoch ms, Meta's time). */
  replied_at?: number;
  /** The person wrote otherwise within 24 h of its delivery (epoch ms). */
  replied_after_at?: number;
  button?: { text: string; payload?: string };
}

/** A recipient's reply, where its person answered its message (the recipients listing's `replied_at` and `button`). */
export interface RepliedRecipient {
  reply?: MessageReply;
}
