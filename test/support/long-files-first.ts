import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest start first, so no long file is left running alone at the end of a run. Vitest
 * learns durations from its cache, but a fresh clone (CI) has none and would start the largest files first.
 * After the first three, each long file (a stack of its own: measured, crash, deploy, browser) alternates with one
 * file of the shared stack: those all run on the one stack of the run's process, idle while only long files ran
 * (issue 45: the shared stack's files then ran last, four at once on that one process, and the run took 343 s).
 */
const LONG_FILES = [
  'test/measured/production-rates.test.ts',
  'test/measured/fair-dispatch.test.ts',
  'test/deploy/rehearsal.test.ts',
  'test/crash/dispatch-crash.test.ts',
  'test/crash/scheduled-send.test.ts',
  'test/measured/shared-number.test.ts',
  'test/deploy/deployed-bundles.test.ts',
  'test/browser/sends.test.ts',
  'test/crash/sync-and-webhook-crash.test.ts',
  'test/crash/dead-letters.test.ts',
  'test/architecture/typecheck.test.ts',
  'test/infra/deployability.test.ts',
  'test/http/start-command.test.ts',
];
/** How many long files start before the shared stack's files join them one for one. */
const LONG_AHEAD = 3;
const onSharedStack = (spec: TestSpecification) => spec.project.name === 'stack';

export default class LongFilesFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => LONG_FILES.findIndex((file) => spec.moduleId.endsWith(file));
    const long = sorted.filter((spec) => rank(spec) !== -1).sort((a, b) => rank(a) - rank(b));
    const shared = sorted.filter((spec) => rank(spec) === -1 && onSharedStack(spec));
    const rest = sorted.filter((spec) => rank(spec) === -1 && !onSharedStack(spec));
    const order = long.slice(0, LONG_AHEAD);
    for (let i = LONG_AHEAD; i < long.length; i++) order.push(...shared.splice(0, 1), long[i]);
    return [...order, ...shared, ...rest];
  }
}
