import { DAY_MS, dayIn, dayOf, dayStartIn, dayStartMs, isDay } from '#lib/domain/shared/calendar.ts';
import { DEFAULT_WABA_ZONE, zoneOfMetaTimezone } from '#lib/domain/shared/meta-timezones.ts';
import { fromMicros } from '#lib/domain/shared/money.ts';
import { GraphError } from './graph-error.ts';
import type { EmulatedTemplate, EmulatedWaba, GraphModel, SentMessage } from './model.ts';
import { personOf } from './recipients.ts';

/**
 * Meta's template analytics as the emulator plays it (docs/template-analytics.md §1): `POST /{waba}?is_enabled_for_insights=true`
 * confirms it once, and `GET /{waba}/template_analytics` answers, per template and day, what this emulator itself
 * sent, delivered and read, the clicks on URL buttons a test recorded (`POST /_emulator/messages/{id}/click`) and
 * what Meta's books charged for the delivered ones. A message counts on the day it was sent.
 */

/** Meta's limits (docs/template-analytics.md §1.2, §1.4): ids a read, its lookback, how long reads and clicks are kept. */
export const TEMPLATE_IDS_MAX = 10;
export const LOOKBACK_DAYS = 90;
export const READS_KEPT_DAYS = 7;
/** Data points a page holds when the read asks no `limit`: Meta prints none, so a test can make pages smaller. */
export const TEMPLATE_ANALYTICS_PAGE_SIZE = 100;

const METRICS = ['SENT', 'DELIVERED', 'READ', 'CLICKED', 'COST'] as const;
/** The Marketing Messages API's `product_type`, as either source spells it (§1.2: the sources disagree). */
const MM_PRODUCTS = ['MARKETING_MESSAGES_LITE_API', 'MARKETING_MESSAGES_API_FOR_WHATSAPP'];

/** What became of one sent message in Meta's analytics: delivered, read, what it cost, its URL button's clicks. */
interface Outcome {
  delivered?: boolean;
  read?: boolean;
  micros?: number;
  /** Clicks by the URL button's label. */
  clicks?: Record<string, number>;
}

/** A read's query as Graph receives it. */
type Query = Record<string, string | undefined>;

const refuse = (message: string) => new GraphError(400, 100, `Invalid parameter: ${message}`);

export class EmulatedTemplateAnalytics {
  /** Each message's outcome, by its id. */
  private readonly outcomes = new Map<string, Outcome>();
  /** A WABA's page size when a read asks none (a test's paging), else TEMPLATE_ANALYTICS_PAGE_SIZE. */
  readonly pageSizes = new Map<string, number>();

  constructor(
    private readonly model: GraphModel,
    /** WABAs billed on a partner's credit line (the pricing's): their reads carry no COST (§1.4). */
    private readonly creditLines: ReadonlySet<string>,
    /** The emulator's clock: the lookback and the 7 days reads and clicks are kept count from it. */
    private readonly now: () => number = Date.now,
  ) {}

  /** A status Meta reported of a message (and what its books charged, when delivered). */
  reported(message: SentMessage, status: string, micros?: number) {
    const outcome = this.outcomeOf(message.id);
    if (status === 'delivered' || status === 'read') outcome.delivered = true;
    if (status === 'read') outcome.read = true;
    if (micros !== undefined) outcome.micros = micros;
  }

  /**
   * A person tapped the message's URL button (`button`: its label; the template's first URL button when absent).
   * Answers the button's label and its clicks so far, or a refusal for a message whose template has no such button.
   */
  click(message: SentMessage, button?: string): { button: string; clicks: number } | { refused: string } {
    const template = this.templateOf(message);
    const urls = urlButtonsOf(template);
    if (urls.length === 0) return { refused: 'the message’s template has no URL button' };
    const label = button ?? urls[0];
    if (!urls.includes(label)) return { refused: `the message’s template has no URL button "${label}"` };
    const outcome = this.outcomeOf(message.id);
    outcome.clicks = { ...outcome.clicks, [label]: (outcome.clicks?.[label] ?? 0) + 1 };
    return { button: label, clicks: outcome.clicks[label] };
  }

  /** `POST /{waba}?is_enabled_for_insights=true`: confirmed once, never undone (§1.1); the WABA's id, a number where it is one. */
  enable(waba: EmulatedWaba) {
    waba.is_enabled_for_insights = true;
    return { id: /^\d+$/.test(waba.id) ? Number(waba.id) : waba.id };
  }

  /**
   * `GET /{waba}/template_analytics` (§1.2–1.5): DAILY points of the templates asked from `start` to `end` (end
   * excluded), in pages of `limit` (else the WABA's page size) with Graph's cursors and `paging.next`.
   */
  analytics(waba: EmulatedWaba, query: Query, nextUrl: (after: string) => string) {
    if (!waba.is_enabled_for_insights) throw refuse('template analytics is not enabled for this WhatsApp Business Account');
    const asked = askedOf(query, this.zoneOf(waba, query), this.now());
    const points = this.pointsOf(waba, { ...asked, creditLine: this.creditLines.has(waba.id) });
    const from = query.after ? Number(Buffer.from(query.after, 'base64url').toString()) || 0 : 0;
    const size = Math.max(1, Number(query.limit) || this.pageSizes.get(waba.id) || TEMPLATE_ANALYTICS_PAGE_SIZE);
    const to = Math.min(from + size, points.length);
    const cursors = { before: cursorOf(from), after: cursorOf(to) };
    const item = {
      granularity: 'DAILY',
      product_type: asked.mm ? 'marketing_messages_lite_api' : 'cloud_api',
      ...(query.use_waba_timezone === 'true' && { waba_timezone: asked.zone }),
      data_points: points.slice(from, to),
    };
    return { data: [item], paging: { cursors, ...(to < points.length && { next: nextUrl(cursors.after) }) } };
  }

  /** Each asked template's point of each day, in the order asked: zeros where nothing was sent. */
  private pointsOf(waba: EmulatedWaba, asked: Asked) {
    const templates = asked.ids.flatMap((id) => waba.templates.filter((t) => t.id === id));
    const points: Record<string, unknown>[] = [];
    for (const template of templates)
      for (let day = asked.first; day < asked.end; day = dayOf(dayStartMs(day) + DAY_MS)) points.push(this.pointOf(template, day, asked));
    return points;
  }

  /** One template's day: its messages sent that day (in the read's zone) and what became of them. */
  private pointOf(template: EmulatedTemplate, day: string, asked: Asked) {
    const start = dayStartIn(day, asked.zone);
    const end = dayStartIn(dayOf(dayStartMs(day) + DAY_MS), asked.zone);
    const sent = this.model.sent.filter(
      (m) => m.accepted_at >= start && m.accepted_at < end && (m.api === 'mm') === asked.mm && this.templateOf(m) === template,
    );
    // Meta keeps reads and clicks 7 days from the day a message was sent; then they read as zero (§1.4).
    const kept = this.now() - start < READS_KEPT_DAYS * DAY_MS;
    const outcomes = sent.map((m) => ({ person: personOf(m), ...this.outcomes.get(m.id) }));
    const delivered = outcomes.filter((o) => o.delivered).length;
    const micros = outcomes.reduce((sum, o) => sum + (o.micros ?? 0), 0);
    const point: Record<string, unknown> = { template_id: template.id, start: start / 1000, end: end / 1000 };
    if (asked.metrics.has('SENT')) point.sent = sent.length;
    if (asked.metrics.has('DELIVERED')) point.delivered = delivered;
    if (asked.metrics.has('READ')) point.read = kept ? outcomes.filter((o) => o.read).length : 0;
    const buttons = urlButtonsOf(template);
    // Clicks only of MARKETING and UTILITY templates, and only where they have a URL button (§1.3).
    const clicked = ['MARKETING', 'UTILITY'].includes(String(template.category).toUpperCase()) && buttons.length > 0;
    if (asked.metrics.has('CLICKED') && clicked) point.clicked = clicksOf(buttons, outcomes, kept);
    const clicks = kept ? outcomes.reduce((n, o) => n + Object.values(o.clicks ?? {}).reduce((a, b) => a + b, 0), 0) : 0;
    // No COST for a WABA billed through a partner's credit line (§1.4), as pricing_analytics.
    if (asked.metrics.has('COST') && !asked.creditLine) point.cost = costOf(micros, delivered, buttons.length > 0 ? clicks : undefined);
    return point;
  }

  /** The zone of a read's days: the WABA's with `use_waba_timezone=true`, else UTC (§1.2). */
  private zoneOf(waba: EmulatedWaba, query: Query) {
    if (query.use_waba_timezone !== 'true') return 'UTC';
    return zoneOfMetaTimezone(waba.timezone_id) ?? DEFAULT_WABA_ZONE;
  }

  /** The template a message was sent with, as its WABA holds it (a Direct Send's, the one Meta generated). */
  templateOf(message: SentMessage) {
    const waba = this.model.wabas.get(this.model.phoneNumbers.get(message.phone_number_id)?.waba_id ?? '');
    const template = message.message.template as { name?: string; language?: { code?: string } } | undefined;
    if (message.direct_template) return waba?.templates.find((t) => t.name === message.direct_template);
    return waba?.templates.find((t) => t.name === template?.name && t.language === template?.language?.code);
  }

  private outcomeOf(messageId: string) {
    const outcome = this.outcomes.get(messageId) ?? {};
    this.outcomes.set(messageId, outcome);
    return outcome;
  }
}

/** What a read asks, checked as Meta checks it: its days, zone, templates, metrics and product. */
interface Asked {
  zone: string;
  first: string;
  /** The first day not read. */
  end: string;
  ids: string[];
  metrics: Set<string>;
  mm: boolean;
  creditLine?: boolean;
}

/** The read's query, or Meta's refusal of it (code 100, the emulator's choice: Meta's codes are UNCONFIRMED, §1.5). */
function askedOf(query: Query, zone: string, nowMs: number): Asked {
  if (query.granularity !== 'DAILY') throw refuse('granularity must be DAILY');
  const ids = listOf(query.template_ids, 'template_ids');
  if (ids.length === 0) throw refuse('template_ids is required');
  if (ids.length > TEMPLATE_IDS_MAX) throw refuse(`template_ids: Maximum ${TEMPLATE_IDS_MAX}`);
  const metrics = new Set(listOf(query.metric_types, 'metric_types').map((m) => m.toUpperCase()));
  const unknown = [...metrics].find((m) => !(METRICS as readonly string[]).includes(m) && !/^(APP|WEBSITE)_/.test(m));
  if (unknown) throw refuse(`metric_types: ${unknown}`);
  const first = dayOfBound(query.start, 'start', zone, query.use_waba_timezone === 'true');
  const end = dayOfBound(query.end, 'end', zone, query.use_waba_timezone === 'true');
  if (dayStartMs(first) < dayStartMs(dayOf(nowMs)) - LOOKBACK_DAYS * DAY_MS)
    throw refuse(`start can't be older than ${LOOKBACK_DAYS} days`);
  const product = query.product_type?.toUpperCase();
  if (product !== undefined && product !== 'CLOUD_API' && !MM_PRODUCTS.includes(product)) throw refuse('product_type');
  return { zone, first, end, ids, metrics: metrics.size > 0 ? metrics : new Set(METRICS), mm: MM_PRODUCTS.includes(product ?? '') };
}

/**
 * A bound's day: `YYYY-MM-DD`, or Unix seconds moved back to 00:00 UTC; with `use_waba_timezone=true` only
 * `YYYY-MM-DD` (§1.2).
 */
function dayOfBound(value: string | undefined, name: string, zone: string, wabaZone: boolean): string {
  if (value !== undefined && isDay(value)) return value;
  if (wabaZone || value === undefined || !/^\d{1,12}$/.test(value))
    throw refuse(`${name} must be ${wabaZone ? 'YYYY-MM-DD' : 'a Unix time or YYYY-MM-DD'}`);
  return zone === 'UTC' ? dayOf(Number(value) * 1000) : dayIn(Number(value) * 1000, zone);
}

/** A JSON list of strings (`[1,2]` or `["SENT"]`), as Graph takes lists in a query; empty when absent. */
function listOf(value: string | undefined, name: string): string[] {
  if (value === undefined || value === '') return [];
  try {
    const list = JSON.parse(value);
    if (Array.isArray(list) && list.every((x) => typeof x === 'string' || Number.isSafeInteger(x))) return list.map(String);
  } catch {
    // Not JSON: refused below.
  }
  throw refuse(`${name} must be a list`);
}

/** The template's URL buttons, by label. */
function urlButtonsOf(template: EmulatedTemplate | undefined): string[] {
  const components = (template?.components ?? []) as { type?: string; buttons?: { type?: string; text?: string }[] }[];
  return components
    .filter((c) => String(c.type).toUpperCase() === 'BUTTONS')
    .flatMap((c) => c.buttons ?? [])
    .filter((b) => String(b.type).toUpperCase() === 'URL' && typeof b.text === 'string')
    .map((b) => b.text as string);
}

/** `clicked`: each URL button's clicks (`url_button`) and the people who clicked it (`unique_url_button`). */
function clicksOf(buttons: string[], outcomes: { person: string; clicks?: Record<string, number> }[], kept: boolean) {
  return buttons.flatMap((button) => {
    const clickers = outcomes.filter((o) => (o.clicks?.[button] ?? 0) > 0);
    const count = clickers.reduce((n, o) => n + (o.clicks?.[button] ?? 0), 0);
    return [
      { type: 'url_button', button_content: button, count: kept ? count : 0 },
      { type: 'unique_url_button', button_content: button, count: kept ? new Set(clickers.map((o) => o.person)).size : 0 },
    ];
  });
}

/** `cost`: what was spent, per delivered message, and per URL click where the template has a URL button (§1.3). */
function costOf(micros: number, delivered: number, clicks: number | undefined) {
  const per = (n: number) => (n > 0 ? fromMicros(micros / n) : 0);
  return [
    { type: 'amount_spent', value: fromMicros(micros) },
    { type: 'cost_per_delivered', value: per(delivered) },
    ...(clicks !== undefined ? [{ type: 'cost_per_url_button_click', value: per(clicks) }] : []),
  ];
}

/** A cursor as Graph's are: opaque to the caller (here the offset of a page's first point). */
const cursorOf = (offset: number) => Buffer.from(String(offset)).toString('base64url');
