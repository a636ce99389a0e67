import type { AbSend, AbTest, RatedVariant } from './ab-send.ts';

/**
 * An A/B send as its answers show it (decisions §33): each variant's template, weight and recipients, and its test
 * with the decision and the figures it was made on. Nothing of the seed: it is the service's, not the caller's.
 */

type Named = { name: string; language: string };
const templateOf = (variant: Named) => ({ name: variant.name, language: variant.language });

function ratedShown(ab: AbSend, v: RatedVariant) {
  return {
    template: templateOf(ab.variants[v.variant]),
    sent: v.sent,
    delivered: v.delivered,
    read: v.read,
    replied: v.replied,
    ...(v.clicked !== undefined && { clicked: v.clicked }),
    ...(v.rate !== undefined && { rate: v.rate }),
    ...(v.interval && { interval: v.interval }),
  };
}

function testShown(ab: AbSend, test: AbTest) {
  const { decision } = test;
  return {
    share: test.share,
    wait_seconds: test.wait_seconds,
    metric: test.metric,
    decide_at: test.decide_at,
    test_recipients: test.test_recipients,
    rest_recipients: test.rest_recipients,
    ...(decision && {
      decision: {
        winner: templateOf(ab.variants[decision.winner]),
        decided_at: decision.decided_at,
        rule: decision.rule,
        significant: decision.significant,
        reason: decision.reason,
        variants: decision.variants.map((v) => ratedShown(ab, v)),
      },
    }),
    ...(test.rest_released_at && { rest_released_at: test.rest_released_at }),
  };
}

type VariantShown = { template: Named; weight: number; recipients: number };

/** The fields an A/B send adds to a send's answers; none for another send. */
export function abShown(ab: AbSend | undefined): { variants?: VariantShown[]; test?: ReturnType<typeof testShown> } {
  if (!ab) return {};
  return {
    variants: ab.variants.map((v) => ({ template: templateOf(v), weight: v.weight, recipients: v.recipients })),
    ...(ab.test && { test: testShown(ab, ab.test) }),
  };
}
