import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest start first, so no long file is left running alone at the end of a run. Vitest
 * learns durations from its cache, but a fresh clone (CI) has none and would start the largest files first.
 */
const LONG_FILES = [
  // A run's longest file (about 200 s on the shared stack: sends of 1,000, 400 and 200 one after another).
  'test/http/ab-sends.test.ts',
  'test/crash/dispatch-crash.test.ts',
  'test/crash/scheduled-send.test.ts',
  'test/architecture/typecheck.test.ts',
  'test/deploy/rehearsal.test.ts',
  'test/crash/sync-and-webhook-crash.test.ts',
  'test/measured/production-rates.test.ts',
  'test/measured/fair-dispatch.test.ts',
  'test/measured/performance-writes.test.ts',
  'test/crash/books-crash.test.ts',
  // The HIGH model's tests (about 50 s of one core): beside the stack's waits, not alone at the end.
  'test/unit/high-tier-simulation.test.ts',
  // Half of it waits for a cancel to settle (docs/dispatch-jobs.md): beside the others' work, not at the end.
  'test/measured/shared-number.test.ts',
  'test/crash/dead-letters.test.ts',
  'test/deploy/deployed-bundles.test.ts',
  'test/browser/sends.test.ts',
  'test/http/start-command.test.ts',
  'test/http/webhook-deliveries.test.ts',
  'test/infra/deployability.test.ts',
  'test/http/templates-list.test.ts',
  'test/http/dispatch.test.ts',
  // The shared stack's longest files, so its last minute is short files.
  'test/http/cost-reconciliation.test.ts',
  'test/http/send-performance.test.ts',
  'test/http/pauses.test.ts',
  'test/http/message-costs.test.ts',
  'test/http/send-operations.test.ts',
  'test/http/budget-spend.test.ts',
];

export default class LongFilesFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONG_FILES.findIndex((file) => spec.moduleId.endsWith(file));
      return index === -1 ? LONG_FILES.length : index;
    };
    // A stable sort: the rest keep vitest's own order.
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
