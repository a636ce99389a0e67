import { twoProportionTest, wilson } from '../performance/stats.ts';
import type { DecisionRule, RatedVariant, TestDecision, TestMetric, VariantFigures } from './ab-send.ts';

/**
 * A test-first send's decision (decisions §33, docs/ab-sends.md): each variant's rate of the metric over its
 * delivered messages, with a 95 % Wilson interval; the best rate wins. Ties go to the variant with more delivered
 * (more evidence), then to the heavier weight, then to the one listed first; with nothing delivered at all (no data)
 * the heaviest weight wins, the first listed among equals. Whether the winner is significantly better than the
 * runner-up is a two-sided two-proportion z-test at 95 %, as the send's performance compares its variants
 * (performance/stats.ts). Pure: the same figures give the same decision.
 */

/** Six decimals are enough for a rate, and keep the decision the same when figures are read again. */
const rounded = (x: number) => Math.round(x * 1e6) / 1e6;

/** The 95 % Wilson score interval of `successes` in `trials` (performance/stats.ts); undefined with no trials. */
export function wilsonInterval(successes: number, trials: number): [number, number] | undefined {
  const interval = wilson(successes, trials);
  return interval && [interval.low, interval.high];
}

/** Whether two rates differ at 95 % (the pooled two-proportion z-test, performance/stats.ts); never with an empty side or no variance. */
export const significantlyApart = (a: { successes: number; trials: number }, b: { successes: number; trials: number }) =>
  twoProportionTest(a, b)?.significant ?? false;

/** The metric's count of a variant (a rate's numerator). */
export const successesOf = (figures: VariantFigures, metric: TestMetric) => figures[metric] ?? 0;

/**
 * Each variant's figures with its rate and interval: none where nothing was delivered, nor for clicks where Meta's
 * analytics had none of its template yet (no data, not a rate of 0).
 */
export function rated(figures: VariantFigures[], metric: TestMetric): RatedVariant[] {
  return figures.map((f) => {
    if (metric === 'clicked' && f.clicked === undefined) return { ...f };
    const successes = Math.min(successesOf(f, metric), f.delivered);
    const interval = wilsonInterval(successes, f.delivered);
    return { ...f, ...(interval && { rate: rounded(successes / f.delivered), interval }) };
  });
}

type Candidate = RatedVariant & { weight: number };

/** Best first: rate, then delivered, then weight, then the order listed. */
const better = (a: Candidate, b: Candidate) =>
  (b.rate ?? -1) - (a.rate ?? -1) || b.delivered - a.delivered || b.weight - a.weight || a.variant - b.variant;

const percent = (x: number) => `${(x * 100).toFixed(1)} %`;
const describe = (v: RatedVariant, names: string[]) =>
  v.rate === undefined || !v.interval
    ? `${names[v.variant]}: nothing delivered`
    : `${names[v.variant]} ${percent(v.rate)} (95 % interval ${percent(v.interval[0])}–${percent(v.interval[1])}, ${v.delivered} delivered)`;

/**
 * The decision of a test from each variant's figures (in the request's order of variants), their weights and
 * names (`name (language)`), at `at`.
 */
export function decideTest(
  metric: TestMetric,
  figures: VariantFigures[],
  variants: { weight: number; name: string }[],
  at: string,
): TestDecision {
  const all = rated(figures, metric);
  const names = variants.map((v) => v.name);
  const ranked = all.map((v): Candidate => ({ ...v, weight: variants[v.variant]?.weight ?? 0 })).sort(better);
  const [best, runnerUp] = ranked;
  const rule: DecisionRule =
    best.rate === undefined ? 'no_data' : runnerUp?.rate !== undefined && runnerUp.rate === best.rate ? 'tie' : 'best_rate';
  const significant =
    rule === 'best_rate' &&
    runnerUp?.rate !== undefined &&
    significantlyApart(
      { successes: Math.min(successesOf(best, metric), best.delivered), trials: best.delivered },
      { successes: Math.min(successesOf(runnerUp, metric), runnerUp.delivered), trials: runnerUp.delivered },
    );
  const how =
    rule === 'no_data'
      ? `no variant had a delivered message: the heaviest weight wins, the first listed among equals`
      : rule === 'tie'
        ? `a tie on the ${metric} rate, won by more delivered, then weight, then the order listed`
        : `the best ${metric} rate${significant ? ', significantly better than the next at 95 %' : ', not significantly better than the next at 95 %'}`;
  const reason = `${names[best.variant]} won: ${how}. ${ranked.map((v) => describe(v, names)).join('; ')}.`;
  return { winner: best.variant, decided_at: at, metric, rule, significant, reason, variants: all };
}
