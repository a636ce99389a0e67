/**
 * The performance's figures as the console shows them (decisions §33), shaped from the API's answers without a
 * browser: a rate with its 95 % interval in words, whether variants differ, and the templates' chart by day. The
 * figures are the API's; a field an answer lacks (a cost an agent may not see, clicks not read yet) is never shown.
 */

import type { SendPerformance, TemplatePerformance } from '../answers.ts';

/** A rate with its interval, as the API gives it. */
export interface RateInterval {
  rate: number;
  low: number;
  high: number;
}

const percent = (x: number) => `${(x * 100).toFixed(1)} %`;

/** `45.0 % (40.1–50.2 %)`, or a dash where there is no rate (nothing delivered). */
export const rateText = (interval?: RateInterval) =>
  interval ? `${percent(interval.rate)} (${(interval.low * 100).toFixed(1)}–${(interval.high * 100).toFixed(1)} %)` : '—';

/** An amount per event, or a dash. */
export const perText = (amount?: number, currency?: string) =>
  amount === undefined ? '—' : `${amount.toFixed(4)}${currency ? ` ${currency}` : ''}`;

/** A variant's name: its template and language. */
export const variantName = (variant: { variant: number; template: { name: string; language: string } }) =>
  `${variant.variant + 1}: ${variant.template.name} (${variant.template.language})`;

/** Buttons pressed, most first: `Yes 100, No 50`, or a dash. */
export const buttonsText = (buttons: Record<string, number>) =>
  Object.entries(buttons)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([label, n]) => `${label} ${n.toLocaleString('en')}`)
    .join(', ') || '—';

/**
 * Whether the variants differ, in words: the best variant's rate against each other one's (two-proportion z-test,
 * two-sided at 5 %), or why it cannot be said.
 */
export function comparisonText(answer: Pick<SendPerformance, 'comparison' | 'variants'>, of: 'read' | 'replied'): string | undefined {
  const comparison = answer.comparison?.[of];
  if (!comparison) return undefined;
  const name = (v: number) => {
    const variant = answer.variants.find((x) => x.variant === v);
    return variant ? variantName(variant) : `variant ${v + 1}`;
  };
  const what = of === 'read' ? 'read rate' : 'reply rate';
  if (comparison.best === undefined) return `Too few deliveries to compare the variants' ${what}s.`;
  const against = comparison.against
    .map((a) => `${name(a.variant)}: p = ${a.p_value.toFixed(3)}, ${a.significant ? 'significant' : 'not significant'}`)
    .join('; ');
  return `Best ${what}: ${name(comparison.best)}, ${comparison.significant ? 'significantly' : 'not significantly'} better than every other (${against}).`;
}

/** What the templates' chart draws a day of: one of the counts each row has. */
export type ChartFigure = 'sent' | 'delivered' | 'read' | 'replied' | 'clicks';
export const CHART_FIGURES: readonly ChartFigure[] = ['sent', 'delivered', 'read', 'replied', 'clicks'];

export interface TemplateSeries {
  /** The template, its language, and its WABA where the client has templates of one name in two. */
  label: string;
  key: string;
  /** One a day of `days`. */
  values: number[];
  total: number;
}

export interface TemplatesChart {
  days: string[];
  series: TemplateSeries[];
  figure: ChartFigure;
}

/** The templates' rows as the chart draws them: a bar a day, stacked by template, of one figure. */
export function templatesChart(answer: Pick<TemplatePerformance, 'data'>, figure: ChartFigure): TemplatesChart {
  const days = [...new Set(answer.data.map((row) => row.day))].sort();
  const keyOf = (row: TemplatePerformance['data'][number]) => `${row.template}|${row.language}|${row.waba_id}`;
  const series = new Map<string, TemplateSeries>();
  for (const row of answer.data) {
    const key = keyOf(row);
    const twice =
      new Set(answer.data.filter((r) => r.template === row.template && r.language === row.language).map((r) => r.waba_id)).size > 1;
    const known = series.get(key) ?? {
      label: `${row.template} (${row.language})${twice ? ` of ${row.waba_id}` : ''}`,
      key,
      values: days.map(() => 0),
      total: 0,
    };
    const value = row[figure] ?? 0;
    known.values[days.indexOf(row.day)] += value;
    known.total += value;
    series.set(key, known);
  }
  return { days, series: [...series.values()].sort((a, b) => a.label.localeCompare(b.label)), figure };
}

/** The days of the page: the last `days` days up to today (UTC), as `from` and `to`. */
export function lastDays(today: Date, days: number): { from: string; to: string } {
  const to = today.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}
