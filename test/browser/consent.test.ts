import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../local/keys.ts';
import { call } from '../support/api.ts';
import { consoleStack, newTab, openConsole, screenshot, seriousViolations } from '../support/browser.ts';

/**
 * The consent page (issue 45) in Chromium against `npm start`'s stack: an agent of client 8 adds a person to its
 * suppression list, finds them, and takes them off after confirming; the API says each step happened.
 */
consoleStack();
const CLIENT = 8;
const run = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
const PHONE = `52155${run}`;
const agentToken = () => mintToken({ clientId: CLIENT, campaigns: [41], sub: 'console-consent-agent' });
const entry = async () => call('GET', `/v1/suppressions/${PHONE}`, { token: await agentToken() });

let context: BrowserContext;
let page: Page;
let faults: string[];
beforeAll(async () => {
  ({ context, page, faults } = await newTab());
  await openConsole(page, await agentToken(), 'consent');
});
afterAll(() => context?.close());

describe('the consent page (issue 45)', () => {
  it('adds a person with a reason: the API has them, from the API, with that reason', async () => {
    // Act
    await page.getByLabel('Phone number or BSUID to add').fill(`+52 1 55 ${run}`);
    await page.getByLabel('Reason (optional)').fill('asked on the phone');
    await page.getByRole('button', { name: 'Add to the list' }).click();
    await page.getByText('is on the suppression list now').waitFor();
    // Assess: through the API, and in the page's list with its source in words
    const added = await entry();
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ client_id: CLIENT, source: 'api', reason: 'asked on the phone' });
    const row = page.locator(`tr[data-person="${added.body.phone}"]`);
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Added by an operator.*asked on the phone/s);
  });

  it('finds a person on the list, and says so of one who is not', async () => {
    // Act
    await page.getByLabel('Phone number or BSUID', { exact: true }).fill(PHONE);
    await page.getByRole('button', { name: 'Search' }).click();
    const found = await page.locator('[data-found]').textContent();
    await page.getByLabel('Phone number or BSUID', { exact: true }).fill('5215550000999');
    await page.getByRole('button', { name: 'Search' }).click();
    const missing = await page.locator('[data-not-found]').textContent();
    // Assess
    expect(found).toMatch(new RegExp(`${PHONE}.* is on the list since .*: Added by an operator \\(asked on the phone\\)`));
    expect(missing).toBe('5215550000999 is not on this client’s suppression list.');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'consent');
  });

  it('removes a person only once the operator confirms: the API no longer has them', async () => {
    // Prepare
    const remove = page.getByRole('button', { name: `Remove ${PHONE}` });
    // Act: asked, then kept
    await remove.click();
    const dialog = page.getByRole('dialog', { name: `Remove ${PHONE}` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/Take .* off the suppression list\?/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    const kept = (await entry()).status;
    // Act: asked, then confirmed
    await remove.click();
    await dialog.getByRole('button', { name: 'Remove from the list' }).click();
    await page.locator(`tr[data-person="${PHONE}"]`).waitFor({ state: 'detached' });
    // Assess
    expect(kept).toBe(200);
    expect((await entry()).status).toBe(404);
    expect(faults).toEqual([]);
  });
});
