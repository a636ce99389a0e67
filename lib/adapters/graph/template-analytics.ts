import * as v from 'valibot';
import { DAY_MS, dayIn, dayOf, dayStartMs } from '#lib/domain/shared/calendar.ts';
import { UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { toMicros } from '#lib/domain/shared/money.ts';
import type { MetaTemplateDay } from '#lib/domain/templates/template-analytics.ts';
import type { GraphClient } from './graph-client.ts';
import { ANALYTICS_PAGES, pageOfNext } from './pricing-analytics.ts';

/**
 * Meta's template analytics on Graph (docs/template-analytics.md §1): the one-time confirmation, the WABA's
 * template ids, and `template_analytics` asked ten ids at a time (Meta's maximum) for one day in the WABA's
 * timezone, every page of each. A day's figures are whole or the read fails.
 */

/** Template ids one read may name (docs/template-analytics.md §1.2: "Maximum 10"). */
export const TEMPLATE_IDS_PER_READ = 10;
/** Templates a page of the WABA's listing asks: Graph's usual edge maximum, as the sync asks. */
const TEMPLATE_IDS_PAGE = 1000;

const id = v.pipe(v.union([v.string(), v.number()]), v.transform(String));
const count = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0);
const Point = v.looseObject({
  template_id: id,
  start: v.number(),
  sent: count,
  delivered: count,
  read: count,
  clicked: v.optional(v.array(v.looseObject({ type: v.string(), button_content: v.optional(v.string(), ''), count }))),
  cost: v.optional(v.array(v.looseObject({ type: v.string(), value: v.nullish(v.number()) }))),
});
const AnalyticsPage = v.looseObject({
  data: v.array(v.looseObject({ waba_timezone: v.optional(v.string()), data_points: v.optional(v.array(Point), []) })),
  paging: v.optional(v.looseObject({ next: v.optional(v.string()) })),
});
const Listing = v.looseObject({
  data: v.array(v.looseObject({ id, name: v.optional(v.string()), language: v.optional(v.string()) })),
  paging: v.optional(
    v.looseObject({ cursors: v.optional(v.looseObject({ after: v.optional(v.string()) })), next: v.optional(v.string()) }),
  ),
});
const Insights = v.looseObject({ is_enabled_for_insights: v.optional(v.boolean(), false) });
const Enabled = v.looseObject({ id });

const unexpected = () => new UpstreamUnavailable('The upstream answered in an unexpected shape');

function shaped<T extends v.GenericSchema>(schema: T, answer: unknown): v.InferOutput<T> {
  const parsed = v.safeParse(schema, answer);
  if (!parsed.success) throw unexpected();
  return parsed.output;
}

/** Confirms the WABA's template analytics unless Graph says it is on (`is_enabled_for_insights`, §1.1). */
export async function enableTemplateAnalytics(graph: GraphClient, wabaId: string) {
  const insights = shaped(Insights, await graph.request('GET', wabaId, { query: { fields: 'is_enabled_for_insights' } }));
  if (insights.is_enabled_for_insights) return;
  // Confirming twice leaves the same state (it cannot be undone), so the call is safe to repeat.
  shaped(Enabled, await graph.request('POST', wabaId, { query: { is_enabled_for_insights: 'true' }, idempotent: true }));
}

/**
 * The WABA's templates (id, name, language), every page of its listing: all are asked, whatever their status (a
 * template edited yesterday is PENDING today, and its yesterday counts).
 */
async function templatesOf(graph: GraphClient, wabaId: string) {
  const templates = new Map<string, { name?: string; language?: string }>();
  let after: string | undefined;
  for (let page = 0; page < ANALYTICS_PAGES; page++) {
    const answer = shaped(
      Listing,
      await graph.request('GET', `${wabaId}/message_templates`, { query: { fields: 'id,name,language', limit: TEMPLATE_IDS_PAGE, after } }),
    );
    for (const { id: templateId, name, language } of answer.data) templates.set(templateId, { name, language });
    after = answer.paging?.cursors?.after;
    if (!answer.paging?.next || !after) return templates;
  }
  throw new UpstreamUnavailable('message_templates pages do not end');
}

/** Graph's list of ids in a query: digits as numbers (Meta's example), any other id as a JSON string. */
const idList = (ids: string[]) => `[${ids.map((i) => (/^\d+$/.test(i) ? i : JSON.stringify(i))).join(',')}]`;

/**
 * Every template's figures of the WABA's `day` in its own timezone (`use_waba_timezone=true`): its ids asked ten
 * at a time, each read's every page; points of another day (were `end` taken as included) are left out.
 */
export async function readTemplateAnalytics(graph: GraphClient, wabaId: string, day: string): Promise<MetaTemplateDay[]> {
  const templates = await templatesOf(graph, wabaId);
  const ids = [...templates.keys()];
  const days: MetaTemplateDay[] = [];
  for (let i = 0; i < ids.length; i += TEMPLATE_IDS_PER_READ) {
    const query = {
      start: day,
      end: dayOf(dayStartMs(day) + DAY_MS),
      granularity: 'DAILY',
      use_waba_timezone: 'true',
      template_ids: idList(ids.slice(i, i + TEMPLATE_IDS_PER_READ)),
    };
    days.push(...(await readPages(graph, `${wabaId}/template_analytics`, query)).filter((d) => d.day === day));
  }
  return days.map((d) => {
    const { name, language } = templates.get(d.template_id) ?? {};
    return { ...d, ...(name !== undefined && { name }), ...(language !== undefined && { language }) };
  });
}

/** One read's every page: a page named twice is a cursor going round, and the day would never be whole. */
async function readPages(graph: GraphClient, path: string, query: Record<string, string>) {
  const days: MetaTemplateDay[] = [];
  const read = new Set<string>();
  let page: { path: string; query: Record<string, string> } | undefined = { path, query };
  while (page) {
    const key = `${page.path}?${new URLSearchParams(page.query)}`;
    if (read.has(key) || read.size === ANALYTICS_PAGES) throw new UpstreamUnavailable('template_analytics pages do not end');
    read.add(key);
    const answer = shaped(AnalyticsPage, await graph.request('GET', page.path, { query: page.query }));
    for (const item of answer.data) days.push(...item.data_points.map((point) => dayOfPoint(point, item.waba_timezone ?? 'UTC')));
    page = pageOfNext(answer.paging?.next);
  }
  return days;
}

/** A data point as the domain keeps it: its day in the WABA's timezone, clicks by button, COST in micro-units. */
function dayOfPoint(point: v.InferOutput<typeof Point>, zone: string): MetaTemplateDay {
  let day: string;
  try {
    day = dayIn(point.start * 1000, zone);
  } catch {
    // A timezone the runtime does not know: the answer is not one the service can read.
    throw unexpected();
  }
  return {
    template_id: point.template_id,
    day,
    sent: point.sent,
    delivered: point.delivered,
    read: point.read,
    clicked: (point.clicked ?? []).map((c) => ({ type: c.type, button: c.button_content, count: c.count })),
    ...(point.cost && {
      cost: point.cost.flatMap((c) => (typeof c.value === 'number' ? [{ type: c.type, micros: toMicros(c.value) }] : [])),
    }),
  };
}
