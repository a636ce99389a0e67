import type { PriceLists } from '../../money/ports.ts';
import { hasPriceList, moneyShown } from '../../money/pricing/visibility.ts';
import { daysBetween, isDay } from '../../shared/calendar.ts';
import type { Caller } from '../../shared/caller.ts';
import { InvalidRequest } from '../../shared/errors.ts';
import { namedClient } from '../../shared/tenancy.ts';
import type { Figure } from '../figures.ts';
import { figuresView, type MoneyView, sumsOf } from './figure-sums.ts';
import type { TemplateDayFigures, TemplatePerformances } from './ports.ts';
import { type TemplateAnalytics, type TemplateDay, urlClicks } from '../../templates/template-analytics.ts';

/** The most days one request covers: a quarter (what it reads grows with them, decisions §33). */
export const TEMPLATE_PERFORMANCE_MAX_DAYS = 92;

export interface TemplatePerformanceDeps {
  templatePerformances: TemplatePerformances;
  priceLists: Pick<PriceLists, 'lists'>;
  /** Meta's template analytics as kept (issue 56 item 2): each day's URL clicks; undefined, no clicks are told. */
  analytics?: Pick<TemplateAnalytics, 'templateDays'>;
}

export interface TemplatePerformanceQuery {
  client_id?: number;
  from: string;
  to: string;
}

/** from–to as days, from not after to, at most TEMPLATE_PERFORMANCE_MAX_DAYS: else a 400 naming it. */
export function checkDays(from: string, to: string) {
  if (!isDay(from) || !isDay(to)) throw new InvalidRequest('from and to must be dates (YYYY-MM-DD)');
  const days = daysBetween(from, to) + 1;
  if (days < 1) throw new InvalidRequest('to must not be before from');
  if (days > TEMPLATE_PERFORMANCE_MAX_DAYS) throw new InvalidRequest(`from–to covers at most ${TEMPLATE_PERFORMANCE_MAX_DAYS} days`);
}

/**
 * GET /v1/templates/performance (decisions §33): a client's templates' figures by day (each WABA's day, as the
 * ledger's) from `from` to `to`, with rates, and each template's totals over them. An agent sees its own client;
 * BSP_CN names it. Cost or price as the caller may see them (decisions §32).
 */
export async function templatePerformance(deps: TemplatePerformanceDeps, caller: Caller, query: TemplatePerformanceQuery) {
  const clientId = namedClient(caller, query.client_id);
  checkDays(query.from, query.to);
  const shown = moneyShown(caller, hasPriceList(await deps.priceLists.lists(clientId)));
  const [own, meta] = await Promise.all([
    deps.templatePerformances.days(clientId, query.from, query.to),
    deps.analytics?.templateDays(clientId, { from: query.from, to: query.to }),
  ]);
  const rows = withMetaDays(own, meta);
  const clicksOf = (row: Pick<TemplateDayFigures, 'day' | 'waba_id' | 'name' | 'language'>) =>
    meta && { clicks: (meta ?? []).filter((d) => sameTemplateDay(d, row)).reduce((sum, d) => sum + urlClicks(d), 0) };
  const moneyOf = (row: Pick<TemplateDayFigures, 'currency' | 'price_currency'>): MoneyView => ({
    ...(shown.cost && { cost: row.currency ?? '' }),
    ...(shown.price && row.price_currency && { price: row.price_currency }),
  });
  const data = rows.map((row) => ({
    day: row.day,
    waba_id: row.waba_id,
    template: row.name,
    language: row.language,
    ...withCurrencies(moneyOf(row)),
    ...flat(figuresView(sumsOf(Object.entries(row.figures) as [Figure, number][]), moneyOf(row))),
    ...clicksOf(row),
  }));
  const templates = totalsOf(rows, moneyOf).map((t) => ({
    ...t,
    ...(meta && {
      clicks: data
        .filter((d) => d.template === t.template && d.language === t.language && d.waba_id === t.waba_id)
        .reduce((sum, d) => sum + (d.clicks ?? 0), 0),
    }),
  }));
  return { client_id: clientId, from: query.from, to: query.to, data, templates };
}

/** Meta's day and a row of the same template (by WABA, name and language: the service's own figures are kept so). */
const sameTemplateDay = (meta: TemplateDay, row: Pick<TemplateDayFigures, 'day' | 'waba_id' | 'name' | 'language'>) =>
  meta.day === row.day && meta.waba_id === row.waba_id && meta.name === row.name && meta.language === row.language;

/**
 * The service's rows, and a row of no figures of its own for each template day Meta counted that the service did not
 * (its messages sent elsewhere, or clicks on a day after its sends): its clicks are told there.
 */
function withMetaDays(own: TemplateDayFigures[], meta: TemplateDay[] | undefined): TemplateDayFigures[] {
  const extra = (meta ?? []).filter((d) => d.name && d.language && urlClicks(d) > 0 && !own.some((row) => sameTemplateDay(d, row)));
  const rows = [...own];
  for (const d of extra)
    if (!rows.some((row) => sameTemplateDay(d, row)))
      rows.push({ day: d.day, waba_id: d.waba_id, name: d.name as string, language: d.language as string, figures: {} });
  return rows.sort((a, b) => a.day.localeCompare(b.day) || a.name.localeCompare(b.name) || a.language.localeCompare(b.language));
}

/** Each template's figures over all the days, in name and language order. */
function totalsOf(rows: TemplateDayFigures[], moneyOf: (row: TemplateDayFigures) => MoneyView) {
  const groups = new Map<string, TemplateDayFigures[]>();
  for (const row of rows) {
    const key = `${row.name}|${row.language}|${row.waba_id}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()]
    .sort((a, b) => a[0].name.localeCompare(b[0].name) || a[0].language.localeCompare(b[0].language))
    .map((days) => {
      const money = moneyOf(days.find((d) => d.currency) ?? days[0]);
      const sums = sumsOf(days.flatMap((d) => Object.entries(d.figures) as [Figure, number][]));
      return {
        waba_id: days[0].waba_id,
        template: days[0].name,
        language: days[0].language,
        ...withCurrencies(money),
        ...figuresView(sums, money),
      };
    });
}

/** The currencies a row's amounts are in (none where it has none). */
const withCurrencies = (money: MoneyView) => ({
  ...(money.cost && { currency: money.cost }),
  ...(money.price && { price_currency: money.price }),
});

/** A row's rates as plain numbers beside their intervals' bounds, so a CSV holds them in columns. */
function flat(view: ReturnType<typeof figuresView>) {
  const { read_rate, reply_rate, replied_after_rate, ...rest } = view;
  return {
    ...rest,
    ...(read_rate && { read_rate: read_rate.rate, read_rate_low: read_rate.low, read_rate_high: read_rate.high }),
    ...(reply_rate && { reply_rate: reply_rate.rate, reply_rate_low: reply_rate.low, reply_rate_high: reply_rate.high }),
    ...(replied_after_rate && { replied_after_rate: replied_after_rate.rate }),
    button_replies: Object.values(view.buttons).reduce((sum, n) => sum + n, 0),
  };
}
