import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One local stack (DynamoDB Local, SQS server, Graph emulator, API) for the whole run.
    globalSetup: ['test/support/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: two workers keep the stack responsive.
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
