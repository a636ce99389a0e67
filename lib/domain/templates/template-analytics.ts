import type { Day } from '../shared/calendar.ts';

/**
 * Meta's template analytics (issue 56 item 2, decisions §33; the facts in docs/template-analytics.md): per WABA,
 * template and day, what Meta counted of a template's messages (sent, delivered, read), the clicks on its buttons
 * and its cost, read once a day by `readTemplateAnalytics` (./read-template-analytics.ts) and kept beside the
 * service's own counts. These are its shapes and its ports: the reader's (`TemplateAnalytics`), the daily job's
 * store (`TemplateAnalyticsStore`) and Graph (`TemplateAnalyticsUpstream`).
 */

/** A button's clicks as Meta counts them: `url_button` (every click), `unique_url_button` (people), `quick_reply_button`. */
export interface ButtonClicks {
  type: string;
  /** The button's label (Meta's `button_content`). */
  button: string;
  count: number;
}

/** One of Meta's cost figures (`amount_spent`, `cost_per_delivered`, `cost_per_url_button_click`), in micro-units. */
export interface MetaCostFigure {
  type: string;
  micros: number;
}

/** Meta's figures of one template on one day of its WABA (in the WABA's timezone), as Graph answered them. */
export interface MetaTemplateDay {
  template_id: string;
  /** The template's name and language as the WABA's listing named them when the day was read. */
  name?: string;
  language?: string;
  day: Day;
  sent: number;
  delivered: number;
  read: number;
  /** Clicks by button; empty where Meta gave none (an AUTHENTICATION template, one without buttons, tracking off). */
  clicked: ButtonClicks[];
  /** Absent where Meta gave no COST (a WABA billed through a partner, docs/template-analytics.md §1.4). */
  cost?: MetaCostFigure[];
}

/** A template's day as kept: Meta's figures, its WABA, the WABA's billing currency (the cost's) and when it was read. */
export interface TemplateDay extends MetaTemplateDay {
  waba_id: string;
  currency?: string;
  read_at: string;
}

/** The URL button clicks of a day (`url_button`: every click), the figure a send's and a template's performance show. */
export const urlClicks = (day: Pick<MetaTemplateDay, 'clicked'>) =>
  day.clicked.filter((c) => c.type === 'url_button').reduce((sum, c) => sum + c.count, 0);

/** Meta's figures the same: a day read again that says the same is not written again. */
export function sameFigures(a: MetaTemplateDay, b: MetaTemplateDay) {
  const { read_at: _a, currency: _ca, waba_id: _wa, ...left } = a as TemplateDay;
  const { read_at: _b, currency: _cb, waba_id: _wb, ...right } = b as TemplateDay;
  return JSON.stringify(canonical(left)) === JSON.stringify(canonical(right));
}

/** Days in the order readers get them: by day, WABA, then template. */
export const sortDays = <T extends TemplateDay>(days: T[]) =>
  days.sort((a, b) => a.day.localeCompare(b.day) || a.waba_id.localeCompare(b.waba_id) || a.template_id.localeCompare(b.template_id));

/** Whether Meta counted nothing of the template that day: such a day is kept only to correct one kept before. */
export const isEmptyDay = (day: MetaTemplateDay) =>
  day.sent === 0 &&
  day.delivered === 0 &&
  day.read === 0 &&
  day.clicked.every((c) => c.count === 0) &&
  !day.cost?.some((c) => c.micros !== 0);

const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, canonical(v)]),
        )
      : value;

/** What a reader asks: the days from `from` to `to` (both included), of one template (Meta's id) or all the client's. */
export interface TemplateDaysQuery {
  from: Day;
  to: Day;
  templateId?: string;
}

/**
 * Meta's template analytics as kept, for readers (a send's and a template's performance): a client's templates,
 * or one of them, between two days, per template and day, in day, WABA and template order. A client sees the
 * templates of its WABAs (the directory's memberships: what it can send), each as Meta counts it, whoever else
 * shares the WABA (Meta's figures are the template's, not a client's); a template of another WABA answers nothing.
 */
export interface TemplateAnalytics {
  templateDays(clientId: number, query: TemplateDaysQuery): Promise<TemplateDay[]>;
}

/** The daily job's memory of a WABA: whether Meta's template analytics is confirmed on, and the days still unread. */
export interface AnalyticsReaderState {
  enabled: boolean;
  failed_days: Day[];
}

/** Meta's template analytics as the daily job keeps it: an item per WABA, template and day. */
export interface TemplateAnalyticsStore {
  /** The WABA's state; `{enabled: false, failed_days: []}` for one never read. */
  readerState(wabaId: string): Promise<AnalyticsReaderState>;
  setReaderState(wabaId: string, state: AnalyticsReaderState): Promise<void>;
  /**
   * Keeps a WABA's day: each template's figures that differ from those kept (a day read again that says the same
   * writes nothing; a late correction replaces them), a template Meta counted nothing of only where one was kept.
   * Answers how many items it wrote.
   */
  putDay(wabaId: string, day: Day, days: TemplateDay[]): Promise<number>;
}

/** Graph's side (the GraphUpstream adapter owns the wire: paths, groups of ids, pages). */
export interface TemplateAnalyticsUpstream {
  /** Confirms the WABA's template analytics where it is not yet (Meta's one-time step, never undone). */
  enableTemplateAnalytics(wabaId: string): Promise<void>;
  /** Every template's figures of the WABA's day (in its timezone), whole or the call fails. */
  templateAnalytics(wabaId: string, day: Day): Promise<MetaTemplateDay[]>;
}

type DayInCurrency = MetaTemplateDay & { currency?: string };

/**
 * Whether a day read from Meta is to be written over what was kept of it (`undefined`: nothing): a change of its
 * figures or currency; a day never kept, unless Meta counted nothing (decisions §33: a day read twice writes nothing).
 */
export const dayChanged = (kept: DayInCurrency | undefined, read: DayInCurrency) =>
  kept ? !sameFigures(kept, read) || kept.currency !== read.currency : !isEmptyDay(read);
