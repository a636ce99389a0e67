import { defineConfig } from 'vitest/config';
import LongFilesFirst from './test/support/long-files-first.ts';

/**
 * Projects, so the fast loop needs no Java (`npm run test:unit`):
 * - unit: rules, use cases and middlewares on in-memory adapters; no stack, no Java;
 * - static: tsc, the dependency rule and the synthesized template (CDK, cfn-lint; no stack);
 * - stack: everything that talks to the local stack (DynamoDB Local, SQS server, Graph emulator, API), started
 *   once by the project's global setup and shared by its files;
 * - own-stack: the deployed bundles and `npm start`, each on a stack of its own;
 * - measured: the pace at production rates, on a stack of its own;
 * - crash: stacks killed with SIGKILL and started again on their data (issue 23);
 * - browser: the operator's console in Debian's Chromium (playwright-core), against `npm start`'s stack (issue 45).
 * All run at once (issue 32): the pace is asserted at launch and the deadlines on clocks the tests control, so a
 * loaded machine slows a file but changes no outcome; the longest files start first (long-files-first.ts).
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Four workers on this machine's two cores: the stack-bound files spend much of their time waiting on it.
    maxWorkers: 4,
    sequence: { sequencer: LongFilesFirst },
    reporters: ['default', './test/support/summary-reporter.ts', './test/support/timeline-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // The files share their worker's modules: a file that needs other settings imports fresh ones.
          isolate: false,
          setupFiles: ['test/support/quiet-logs.ts', 'test/support/fast-check-seed.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'static',
          include: ['test/architecture/**/*.test.ts', 'test/infra/**/*.test.ts'],
          setupFiles: ['test/support/quiet-logs.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'stack',
          include: ['test/http/**/*.test.ts'],
          exclude: ['test/http/start-command.test.ts', 'test/http/onboarding-logs.test.ts'],
          // The files share a worker's modules (its AWS clients, its settings): each imports them once, not once
          // per file. None changes a setting another reads; an adapter on another table gets it by its constructor.
          isolate: false,
          setupFiles: ['test/support/fast-check-seed.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          // The shared stack serves four files at once on two cores: a test's time is the machine's, not the
          // service's, so its bound is wide; what a test asserts is counts and states.
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Files that start a whole stack of their own (the deployed bundles, `npm start`): no shared one.
          name: 'own-stack',
          include: ['test/deploy/**/*.test.ts', 'test/http/start-command.test.ts', 'test/http/onboarding-logs.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          // Measurements of pace and writes on a stack of their own (its write meter counts only its sends).
          name: 'measured',
          include: ['test/measured/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          // Stacks killed with SIGKILL and started again on their data, each on a folder of its own.
          name: 'crash',
          include: ['test/crash/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The console in a real browser: one `npm start` stack and one Chromium for the project, each file a tab.
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/support/browser-setup.ts'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
