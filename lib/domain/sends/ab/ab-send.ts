import type { RecipientParams } from '../dispatch-job.ts';

/**
 * An A/B send (decisions §33, docs/ab-sends.md): 2–4 variants, each a template of one category with its weight, and
 * optionally a test first. What the request gives, what the send keeps on its record, and the decision of its test.
 */

/** Which rate a test-first send picks its winner by: read, replied or clicked over delivered. */
export const TEST_METRICS = ['read', 'replied', 'clicked'] as const;
export type TestMetric = (typeof TEST_METRICS)[number];

/** How many variants a send may give, and the largest weight of one. */
export const VARIANTS = { min: 2, max: 4, maxWeight: 1000 } as const;

/**
 * How long a test-first send waits between its test share and the rest: at least 5 minutes (Meta's read statuses
 * and replies take minutes to come), at most 3 days (a test older than that says little of the rest's day).
 */
export const TEST_WAIT_SECONDS = { min: 300, max: 259_200 } as const;

/** A variant as the request names it: a template (its language, else the first variant's) and its weight. */
export interface VariantRequest {
  template: string;
  language?: string;
  weight: number;
  /** Values every recipient of this variant gets, part by part, in place of the recipient's own (docs/ab-sends.md). */
  params?: RecipientParams;
}

/** A test first: `share` of the recipients get the variants; the rest, after `wait_seconds`, the best by `metric`. */
export interface TestRequest {
  share: number;
  wait_seconds: number;
  metric: TestMetric;
}

/** One variant as the send keeps it: its template, weight, and how many recipients it has (its test share's). */
export interface AbVariant {
  name: string;
  language: string;
  template_id: string;
  weight: number;
  /** Recipients the hash gave this variant (sendable ones: not repeats, not suppressed); a test's: its test share's. */
  recipients: number;
  /** The variant's own values, as the request gave them (a resend gives them again). */
  params?: RecipientParams;
}

/** A variant's figures when its test was decided (decisions §33): counts from the send's performance. */
export interface VariantFigures {
  variant: number;
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  /** Clicks on URL buttons, where Meta's template analytics gave them. */
  clicked?: number;
}

/** A variant's figures with its rate of the test's metric over delivered and its 95 % (Wilson) interval. */
export interface RatedVariant extends VariantFigures {
  /** Absent where nothing was delivered: no rate. */
  rate?: number;
  interval?: [number, number];
}

/** Why the winner won (docs/ab-sends.md): the best rate, a tie broken, or no data. */
export type DecisionRule = 'best_rate' | 'tie' | 'no_data';

/** A test's decision, on the send: the winner, each variant's figures and whether the difference is significant. */
export interface TestDecision {
  winner: number;
  decided_at: string;
  metric: TestMetric;
  rule: DecisionRule;
  /** The winner against the runner-up: a two-proportion z-test at 95 %. */
  significant: boolean;
  /** In words, for the console and the API's reader. */
  reason: string;
  variants: RatedVariant[];
}

/** A test first as the send keeps it: what was asked, where the rest starts, and, once made, the decision. */
export interface AbTest extends TestRequest {
  /** When the decision is due: the send's time (its `send_at`, else its acceptance) plus `wait_seconds`. */
  decide_at: string;
  /** How many sendable recipients the test share has, and the rest. */
  test_recipients: number;
  rest_recipients: number;
  /** The rest's first position and first job: the send lays its test share out first, the rest after it. */
  rest_first: number;
  rest_job: number;
  decision?: TestDecision;
  /** When the rest's jobs went onto the dispatch queue (or were settled, the send cancelled). */
  rest_released_at?: string;
}

/** What an A/B send keeps on its record (SendRecord.ab). */
export interface AbSend {
  /** The hash's seed (variant-hash.ts): the client and its variants' templates, so a repeat of the send keeps it. */
  seed: string;
  variants: AbVariant[];
  test?: AbTest;
}

/** Whether a job of this send is one of its rest's, held until the test is decided. */
export const isRestJob = (ab: AbSend | undefined, job: number) => ab?.test !== undefined && job >= ab.test.rest_job;
