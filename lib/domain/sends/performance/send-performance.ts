import { BASE_CURRENCY } from '../../money/pricing/rate-card.ts';
import type { PriceLists } from '../../money/ports.ts';
import type { Caller } from '../../shared/caller.ts';
import { NotFound } from '../../shared/errors.ts';
import type { FigureAdd } from '../figures.ts';
import type { SendRecord } from '../ports.ts';
import { moneyShownOn, sendStatusOf } from '../send-status.ts';
import { type FigureSums, figuresView, type MoneyView, sumsOf } from './figure-sums.ts';
import type { SendPerformances } from './ports.ts';
import { ALPHA, twoProportionTest } from './stats.ts';
import { type TemplateAnalytics, type TemplateDay, urlClicks } from '../../templates/template-analytics.ts';

/** A send's figures of one variant, all days summed (decisions §33). */
export interface VariantFigures {
  variant: number;
  template: { name: string; language: string };
  sums: FigureSums;
}

/** A send's variants' templates by place: an A/B send's variants (decisions §33), else its one template as variant 0. */
export function variantTemplatesOf(send: Pick<SendRecord, 'template' | 'ab'>) {
  return send.ab?.variants.length ? send.ab.variants.map((v) => ({ name: v.name, language: v.language })) : [send.template];
}

/** A send's figures by variant: each of its variants, and any variant a figure names beyond them. */
export function variantFiguresOf(send: SendRecord, figures: readonly FigureAdd[]): VariantFigures[] {
  const templates = variantTemplatesOf(send);
  const places = [...new Set([...templates.keys(), ...figures.map((f) => f.variant)])].sort((a, b) => a - b);
  return places.map((variant) => ({
    variant,
    template: templates[variant] ?? { name: 'unknown', language: 'unknown' },
    sums: sumsOf(figures.filter((f) => f.variant === variant).map((f) => [f.figure, f.n] as const)),
  }));
}

/**
 * A send's figures by variant, from its item and count shards in one read (decisions §33): what an A/B send's
 * test reads to choose its winner. Null when there is no such send.
 */
export async function readVariantFigures(deps: { performances: SendPerformances }, sendId: string) {
  const read = await deps.performances.read(sendId);
  return read && { send: read.send, variants: variantFiguresOf(read.send, read.figures) };
}

export interface SendPerformanceDeps {
  performances: SendPerformances;
  priceLists: Pick<PriceLists, 'lists'>;
  /** Meta's template analytics as kept (issue 56 item 2): its templates' URL clicks; undefined, none are told. */
  analytics?: Pick<TemplateAnalytics, 'templateDays'>;
}

/**
 * GET /v1/sends/{send_id}/performance (decisions §33): the send's figures per variant and day, with totals and
 * rates; each variant's read and reply rates with their 95 % interval and, with two variants or more, whether the
 * best differs from each other (two-proportion z-test). Another client's send is not found, unless BSP_CN.
 */
export async function getSendPerformance(deps: SendPerformanceDeps, caller: Caller, sendId: string) {
  const read = await deps.performances.read(sendId);
  const send = read?.send;
  if (!read || !send || send.status !== 'queued' || (send.client_id !== caller.clientId && !caller.isBsp))
    throw new NotFound(`Send ${sendId} does not exist`);
  const [shown] = await moneyShownOn(deps, caller, [send]);
  const money: MoneyView = {
    ...(shown.cost && { cost: send.currency ?? BASE_CURRENCY }),
    ...(shown.price && send.price_list && { price: send.price_list.currency }),
  };
  const variants = variantFiguresOf(send, read.figures);
  const clicks = await templateClicksOf(deps, send.client_id, read.figures);
  return {
    send_id: send.send_id,
    client_id: send.client_id,
    status: sendStatusOf(send).status,
    ...(money.cost && { currency: money.cost }),
    ...(money.price && { price_currency: money.price }),
    totals: figuresView(sumsOf(read.figures.map((f) => [f.figure, f.n] as const)), money),
    variants: variants.map((v) => ({ variant: v.variant, template: v.template, ...figuresView(v.sums, money), ...clicks?.(v.template) })),
    days: daysOf(read.figures).map((d) => ({
      day: d.day,
      variant: d.variant,
      ...figuresView(d.sums, money),
      ...clicks?.(variants.find((v) => v.variant === d.variant)?.template, d.day),
    })),
    ...(variants.length > 1 && { comparison: { read: compared(variants, 'read'), replied: compared(variants, 'replied') } }),
  };
}

/**
 * Meta's URL clicks of a variant's template on the send's days (or one of them): `template_clicks`, the template's
 * every message's (Meta counts clicks by template and day, never by send: docs/performance.md); undefined without them.
 */
async function templateClicksOf(deps: Pick<SendPerformanceDeps, 'analytics'>, clientId: number, figures: readonly FigureAdd[]) {
  const days = [...new Set(figures.map((f) => f.day))].sort();
  if (!deps.analytics || days.length === 0) return undefined;
  const meta: TemplateDay[] = await deps.analytics.templateDays(clientId, { from: days[0], to: days[days.length - 1] });
  return (template?: { name: string; language: string }, day?: string) => ({
    template_clicks: meta
      .filter((d) => d.name === template?.name && d.language === template?.language && (day ? d.day === day : days.includes(d.day)))
      .reduce((sum, d) => sum + urlClicks(d), 0),
  });
}

/** Figures by day and variant, in that order. */
function daysOf(figures: readonly FigureAdd[]) {
  const groups = new Map<string, { day: string; variant: number; adds: [FigureAdd['figure'], number][] }>();
  for (const f of figures) {
    const key = `${f.day}|${f.variant}`;
    const group = groups.get(key) ?? { day: f.day, variant: f.variant, adds: [] };
    group.adds.push([f.figure, f.n]);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => a.day.localeCompare(b.day) || a.variant - b.variant)
    .map((g) => ({ day: g.day, variant: g.variant, sums: sumsOf(g.adds) }));
}

/**
 * The variant with the best rate of `of` (read or replied, of delivered) against each other one: the two-proportion
 * z-test, two-sided at ALPHA; `significant` when it differs from every other. Variants with no delivery are left out.
 */
export function compared(variants: readonly VariantFigures[], of: 'read' | 'replied') {
  const rated = variants
    .filter((v) => v.sums.delivered > 0)
    .map((v) => ({ variant: v.variant, successes: Math.min(v.sums[of], v.sums.delivered), trials: v.sums.delivered }));
  if (rated.length < 2) return { test: 'two_proportion_z' as const, alpha: ALPHA, significant: false, against: [] };
  const best = rated.reduce((a, b) => (b.successes / b.trials > a.successes / a.trials ? b : a));
  const against = rated
    .filter((v) => v !== best)
    .map((v) => ({ variant: v.variant, ...(twoProportionTest(best, v) ?? { z: 0, p_value: 1, significant: false }) }));
  return { test: 'two_proportion_z' as const, alpha: ALPHA, best: best.variant, significant: against.every((a) => a.significant), against };
}
