import { DAY_MS, dayOf } from '../../shared/calendar.ts';
import { type TemplateAnalytics, urlClicks } from '../../templates/template-analytics.ts';
import type { SendPerformances } from '../performance/ports.ts';
import { readVariantFigures } from '../performance/send-performance.ts';
import type { VariantFigures } from './ab-send.ts';
import type { VariantResults } from './ports.ts';

/**
 * Each variant's figures for a test's decision (decisions §33, docs/ab-sends.md): sent, delivered, read and replied
 * from the send's performance (its aggregates, one read of its item and count shards); clicked from Meta's template
 * analytics, which counts a template's URL clicks per day, read once a day: the clicks of each variant's template
 * on the days from the send's to the decision's (a day either side, for the WABA's timezone), as read by then,
 * whatever send they came from. A variant whose template has no day of analytics yet has no clicks (no data).
 */
export interface VariantResultsDeps {
  performances: SendPerformances;
  analytics?: TemplateAnalytics;
  now?: () => string;
}

/** The template analytics' URL clicks of a template between two days; undefined where Meta gave no day yet. */
async function clicksOf(analytics: TemplateAnalytics, clientId: number, templateId: string, days: { from: string; to: string }) {
  const kept = await analytics.templateDays(clientId, { ...days, templateId });
  return kept.length > 0 ? kept.reduce((sum, day) => sum + urlClicks(day), 0) : undefined;
}

export function performanceResults(deps: VariantResultsDeps): VariantResults {
  return {
    async figuresOf(sendId: string, variants: number): Promise<VariantFigures[]> {
      const read = await readVariantFigures(deps, sendId);
      const send = read?.send;
      const nowMs = Date.parse(deps.now?.() ?? new Date().toISOString());
      const days = send && { from: dayOf(Date.parse(send.send_at ?? send.created_at) - DAY_MS), to: dayOf(nowMs + DAY_MS) };
      return Promise.all(
        Array.from({ length: variants }, async (_, variant): Promise<VariantFigures> => {
          const sums = read?.variants.find((v) => v.variant === variant)?.sums;
          const templateId = send?.ab?.variants[variant]?.template_id;
          const clicked =
            deps.analytics && send && days && templateId ? await clicksOf(deps.analytics, send.client_id, templateId, days) : undefined;
          return {
            variant,
            sent: sums?.sent ?? 0,
            delivered: sums?.delivered ?? 0,
            read: sums?.read ?? 0,
            replied: sums?.replied ?? 0,
            ...(clicked !== undefined && { clicked }),
          };
        }),
      );
    },
  };
}
