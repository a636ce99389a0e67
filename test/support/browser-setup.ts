import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.ts';
import { startChildStack } from './child-stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `browser` project's stack: `npm start` in a process of its own, on a data folder of its own. */
    consoleStack: { apiUrl: string; graphUrl: string; token: string; bspToken: string; out: string };
    /** Where the project's one Chromium listens (each file connects to it). */
    browserEndpoint: string;
  }
}

/**
 * The `browser` project's setup (issue 45): `npm start`'s stack, once, on free ports and a fresh data folder, and
 * one Chromium (Debian's, /usr/bin/chromium) that every file of the project drives over its endpoint.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium (as root; .ci/run does it)`);
  const dataDir = mkdtempSync(join(tmpdir(), 'tms-console-'));
  const [stack, browser] = await Promise.all([
    // Nothing kept (KEEP_DATA=false): DynamoDB Local in memory, no journals, a sixth less CPU than on disk.
    startChildStack(dataDir, { FRESH: 'true', KEEP_DATA: 'false' }),
    chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
  ]);
  project.provide('consoleStack', {
    apiUrl: stack.apiUrl,
    graphUrl: stack.graphUrl,
    token: stack.token,
    bspToken: stack.bspToken,
    out: stack.out,
  });
  project.provide('browserEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
