import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../local/keys.ts';
import { call, emulator } from '../support/api.ts';
import { consoleStack, newTab, openConsole, screenshot, seriousViolations } from '../support/browser.ts';

/**
 * The onboarding page (issue 55 item 1) in Chromium against `npm start`'s stack: client 10's admin starts Embedded
 * Signup (the emulator's popup, locally), sees each step's outcome and the channel added; a registration that fails
 * once is resumed from the page.
 */
consoleStack();
const CLIENT = 10;
const adminToken = () => mintToken({ clientId: CLIENT, campaigns: [], role: 'admin', sub: 'console-onboarding-admin' });

let context: BrowserContext;
let page: Page;
let faults: string[];
beforeAll(async () => {
  ({ context, page, faults } = await newTab());
  await openConsole(page, await adminToken(), 'onboarding');
});
afterAll(() => context?.close());

const channels = async () =>
  (await call('GET', `/v1/client-msg-channels?size=100`, { token: await adminToken() })).body.data.map((c: { wa_id: string }) => c.wa_id);

describe('the onboarding page (issue 55 item 1)', () => {
  it('onboards from Embedded Signup: every step done, the channel in the directory', async () => {
    // Act
    await page.getByLabel('Two-step verification PIN (6 digits)').fill('123456');
    await page.getByRole('button', { name: 'Start Embedded Signup' }).click();
    const outcome = page.locator('section[data-status="completed"]');
    await outcome.waitFor();
    // Assess
    const steps = await outcome.locator('tr[data-step]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-step-status')));
    expect(steps).toEqual(['done', 'done', 'done', 'done', 'done', 'done', 'done']);
    const note = await outcome.locator('.note').textContent();
    const did = /Channel (\d+)/.exec(note ?? '')?.[1];
    expect(await channels()).toContain(did);
    expect(await seriousViolations(page)).toEqual([]);
    expect(faults).toEqual([]);
    await screenshot(page, 'onboarding');
  });

  it('shows a registration that failed and resumes it from the page', async () => {
    // Prepare
    await emulator('POST', 'faults', { status: 500, times: 1, path: '/register', method: 'POST' });
    // Act
    await page.getByRole('button', { name: 'Start Embedded Signup' }).click();
    await page.locator('section[data-status="failed"]').waitFor();
    const failedStep = await page.locator('tr[data-step-status="failed"]').getAttribute('data-step');
    await page.getByRole('button', { name: /Resume from/ }).click();
    await page.locator('section[data-status="completed"]').waitFor();
    // Assess
    expect(failedStep).toBe('register');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
