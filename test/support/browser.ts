import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { useStack } from './api.ts';

/** Debian's Chromium (`.ci/run` installs it where it is missing). */
export const CHROMIUM = '/usr/bin/chromium';
/** Headless, offline: nothing of Chromium's own reaches the network, so a run needs no internet. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const ROOT = join(import.meta.dirname, '../..');
/**
 * Where each test writes its page's picture: `.screenshots/` (not committed: a run would otherwise leave the
 * tree changed), or docs/screenshots/ with `npm run screenshots`, whose pictures are committed (the README shows two).
 */
export const SCREENSHOTS = join(ROOT, process.env.SCREENSHOTS_DIR ?? '.screenshots');

/** The project's stack (test/support/browser-setup.ts); `call` and `emulator` of test/support/api.ts go to it. */
export function consoleStack() {
  const stack = inject('consoleStack');
  useStack(stack);
  return stack;
}

let browser: Promise<Browser> | undefined;
/** The project's one Chromium, connected once per file. */
export const sharedBrowser = () => (browser ??= chromium.connect(inject('browserEndpoint')));

/**
 * A browser tab of its own (own session storage: own sign-in) at a fixed size, so screenshots compare. A file
 * opens one per signed-in operator and reuses it from test to test. `faults` collects what the page threw and
 * what its Content-Security-Policy refused, which a test expects to stay empty.
 */
export async function newTab(): Promise<{ context: BrowserContext; page: Page; faults: string[] }> {
  const context = await (await sharedBrowser()).newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB', timezoneId: 'UTC' });
  const page = await context.newPage();
  const faults: string[] = [];
  page.on('pageerror', (error) => faults.push(`thrown: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) faults.push(`refused: ${message.text()}`);
  });
  return { context, page, faults };
}

/** Opens the console signed in with this token (the address `npm start` prints), at a page (`sends`, `sends/<id>`). */
export async function openConsole(page: Page, token: string, path = 'sends'): Promise<void> {
  const { apiUrl } = inject('consoleStack');
  await page.goto(`${apiUrl}/console#token=${token}`);
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  await goTo(page, path);
}

/** Shows another page of the console, as a click on a link would (no reload). */
export async function goTo(page: Page, path: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(`#/${path}`)}`);
  await page.locator('main h1').waitFor();
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One violation axe-core found: its rule, impact and the elements it names. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's WCAG checks on the page as it is now: the serious and critical violations (an empty list passes).
 * axe is evaluated in the page through the DevTools protocol, which the page's Content-Security-Policy does not bound.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('"axe" in window'))) await page.evaluate(axeSource);
  // A string, run in the page (this file is typed for Node, without the DOM's names).
  const violations = await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then(({ violations }) =>
    violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })))`);
  return (violations as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Writes the page's picture to SCREENSHOTS/<name>.png: what the window shows, as an operator sees it first. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled', caret: 'hide' });
}
