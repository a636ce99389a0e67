import type { TestDecision, VariantFigures } from './ab-send.ts';

// The ports of A/B sends (decisions §33, docs/ab-sends.md), apart from the sends' own (../ports.ts is full).

/** Each variant's figures of a send so far: what a test's decision reads. */
export interface VariantResults {
  /** The send's figures per variant, one entry for each of its `variants` (0-based, the request's order). */
  figuresOf(sendId: string, variants: number): Promise<VariantFigures[]>;
}

/** A test-first send's decision and the release of its rest, each kept once on the send (the first stays). */
export interface TestDecisions {
  /** Records the decision unless one is there: answers the one kept (this one, or the earlier one). */
  decide(sendId: string, decision: TestDecision): Promise<TestDecision>;
  /** Marks the rest released (its jobs queued, or settled for a cancelled send); the first time stays. */
  markRestReleased(sendId: string, at: string): Promise<void>;
}

/** One-time schedules of tests' decisions: at `atIso` the send's test is decided. Scheduling twice is once. */
export interface TestSchedules {
  scheduleDecision(sendId: string, atIso: string): Promise<void>;
}
