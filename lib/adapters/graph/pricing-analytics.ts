import * as v from 'valibot';
import { dayOf } from '#lib/domain/shared/calendar.ts';
import { UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { toMicros } from '#lib/domain/shared/money.ts';
import type { MetaCostEntry } from '#lib/domain/money/ports.ts';
import type { GraphClient } from './graph-client.ts';

/**
 * Meta's own figures on Graph (`pricing_analytics`, upstream-facts §9.F): the read, its pages and its shapes.
 * A day's figures are whole or the read fails: a first page is never taken for the day.
 */

/** Pages of one read at most: a WABA's day is far fewer, so more is a cursor that never ends. */
export const ANALYTICS_PAGES = 1_000;

const AnalyticsPoint = v.looseObject({
  start: v.number(),
  phone_number: v.optional(v.string()),
  country: v.optional(v.string(), 'ZZ'),
  pricing_category: v.optional(v.string(), 'UNKNOWN'),
  volume: v.optional(v.number(), 0),
  cost: v.nullish(v.number()),
  /** COST's currency where a point names it (ISO 4217); else the WABA's (GraphUpstream.pricingAnalytics). */
  currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/))),
});
const AnalyticsPage = v.looseObject({
  data: v.array(v.looseObject({ data_points: v.array(AnalyticsPoint) })),
  paging: v.optional(v.looseObject({ next: v.optional(v.string()) })),
});
/**
 * A page `paging.next` names, in the edge's own shape, or the WABA's field (none when the WABA has none) with the
 * WABA's `currency`, asked beside it: COST is in the WABA's currency (upstream-facts §9.F, decisions §31).
 */
const PricingAnalytics = v.union([
  AnalyticsPage,
  v.pipe(
    v.looseObject({ pricing_analytics: v.optional(AnalyticsPage), currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/))) }),
    v.transform((answer) => ({ ...(answer.pricing_analytics ?? { data: [], paging: undefined }), currency: answer.currency })),
  ),
]);

/** Meta's default currency: a figure in it is kept without one (MetaCostEntry: USD when not said). */
const META_DEFAULT_CURRENCY = 'USD';

/** A Graph call: a path under the API's version, and its query. */
interface GraphPage {
  path: string;
  query: Record<string, string>;
}

const unexpected = () => new UpstreamUnavailable('The upstream answered in an unexpected shape');

/**
 * Meta's DAILY figures of a WABA from `startUnix` to `endUnix`, by sending number, country and pricing category
 * (the number says whose client they are, decisions §26), every page of them; a category as the webhooks name it
 * (`authentication-international`). A point without `cost` (a partner's credit line) keeps it unknown, never 0.
 */
export async function readPricingAnalytics(graph: GraphClient, wabaId: string, startUnix: number, endUnix: number) {
  const fields =
    `pricing_analytics.start(${Math.floor(startUnix)}).end(${Math.floor(endUnix)}).granularity(DAILY)` +
    '.dimensions(["PHONE","COUNTRY","PRICING_CATEGORY","PRICING_TYPE"]).metric_types(["COST","VOLUME"]),currency';
  const points: v.InferOutput<typeof AnalyticsPoint>[] = [];
  let wabaCurrency: string | undefined;
  const read = new Set<string>();
  let page: GraphPage | undefined = { path: wabaId, query: { fields } };
  while (page) {
    const key = `${page.path}?${new URLSearchParams(page.query)}`;
    // A page named twice is a cursor going round: the day's figures would never be whole.
    if (read.has(key) || read.size === ANALYTICS_PAGES) throw new UpstreamUnavailable('pricing_analytics pages do not end');
    read.add(key);
    const answer = v.safeParse(PricingAnalytics, await graph.request('GET', page.path, { query: page.query }));
    if (!answer.success) throw unexpected();
    points.push(...answer.output.data.flatMap((d) => d.data_points));
    const { currency } = answer.output;
    if (typeof currency === 'string') wabaCurrency ??= currency;
    page = pageOfNext(answer.output.paging?.next);
  }
  return points.map(entryOf(wabaCurrency));
}

/** A data point as kept: its day, number, country, category, volume and COST, in its currency where not USD. */
const entryOf =
  (wabaCurrency: string | undefined) =>
  (point: v.InferOutput<typeof AnalyticsPoint>): MetaCostEntry => {
    const currency = point.currency ?? wabaCurrency ?? META_DEFAULT_CURRENCY;
    return {
      day: dayOf(point.start * 1000),
      ...(point.phone_number !== undefined && { phone_number: point.phone_number.replace(/\D/g, '') }),
      country: point.country,
      category: point.pricing_category.toLowerCase().replace('authentication_international', 'authentication-international'),
      volume: point.volume,
      ...(typeof point.cost === 'number' && { micros: toMicros(point.cost) }),
      ...(currency !== META_DEFAULT_CURRENCY && { currency }),
    };
  };

/**
 * The call a `paging.next` URL names, made on our own Graph base with our own credentials: its path after the API
 * version and its query but an `access_token` (the token goes in the header only, never to a host an answer names).
 */
export function pageOfNext(next: string | undefined): GraphPage | undefined {
  if (!next) return undefined;
  let url: URL;
  try {
    url = new URL(next);
  } catch {
    throw unexpected();
  }
  const query = Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'access_token'));
  return { path: url.pathname.replace(/^(.*?\/v\d+\.\d+)?\//, ''), query };
}
