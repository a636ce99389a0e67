import { defineConfig } from 'vitest/config';
import LongFilesFirst from './test/support/long-files-first.ts';

/**
 * Three projects, so the fast loop needs no Java (`npm run test:unit`):
 * - unit: rules, use cases and middlewares on in-memory adapters; no stack, no Java;
 * - static: tsc, the dependency rule and the synthesized template (CDK, cfn-lint; no stack);
 * - stack: everything that talks to the local stack (DynamoDB Local, SQS server, Graph emulator, API), started
 *   once by the project's global setup and shared by its files.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Three workers on this machine's two cores: the stack-bound files spend much of their time waiting on it.
    maxWorkers: 3,
    sequence: { sequencer: LongFilesFirst },
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          setupFiles: ['test/support/quiet-logs.ts'],
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
          include: ['test/http/**/*.test.ts', 'test/deploy/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
