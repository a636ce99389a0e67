import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../local/keys.ts';
import { call } from '../support/api.ts';
import { consoleStack, newTab, openConsole, screenshot, seriousViolations } from '../support/browser.ts';

/**
 * The templates page (issue 45) in Chromium against `npm start`'s stack: BSP_CN sees client 7's templates with
 * the listing's status, quality and assignments, and checks a draft for Meta's common reasons to reject it.
 */
const stack = consoleStack();

let context: BrowserContext;
let page: Page;
let faults: string[];
beforeAll(async () => {
  ({ context, page, faults } = await newTab());
  await openConsole(page, stack.bspToken, 'templates');
});
afterAll(() => context?.close());

describe('the templates page (issue 45)', () => {
  it('shows each template’s status, quality, whether enabled, and its campaigns and channels, as the listing has them', async () => {
    // Prepare
    const listing = await call('GET', '/v1/templates?client_id=7&size=50', { token: stack.bspToken });
    // Act
    await page.locator('table.templates tbody tr').first().waitFor();
    const rows = await page.locator('table.templates tbody tr').count();
    const shown = await Promise.all(listing.body.data.map((t: any) => page.locator(`tr[data-template="${t.id}"]`).textContent()));
    // Assess: a row a template of the listing, each with its name, status and quality
    expect(rows).toBe(listing.body.data.length);
    listing.body.data.forEach((t: any, i: number) => {
      expect(shown[i]).toContain(t.meta_template.name);
      expect(shown[i]).toContain(t.meta_template.status);
      expect(shown[i]).toContain(t.meta_template.quality_score?.score ?? 'UNKNOWN');
      expect(shown[i]).toContain(t.active ? 'yes' : 'no');
    });
    expect(await page.locator('table.templates').textContent()).toMatch(/Collections: WA Sales \(5215550001\)/);
  });

  it('shows the API’s refusal in words with its request id: an agent without campaigns may not list templates', async () => {
    // Prepare
    const { context: own, page: agent } = await newTab();
    try {
      // Act
      await openConsole(agent, await mintToken({ clientId: 10, campaigns: [], sub: 'console-templates-agent' }), 'templates');
      const alert = agent.getByRole('alert').filter({ hasText: 'Reading the templates failed' });
      await alert.waitFor();
      // Assess
      expect(await alert.textContent()).toMatch(/Reading the templates failed: .*campaigns.*\(HTTP 400, \w+\)Request id: \S+/);
    } finally {
      await own.close();
    }
  });

  it('checks a draft without creating it and lists its review warnings', async () => {
    // Act
    await page.getByLabel('Name').fill('console_draft');
    await page.getByLabel(/^Body/).fill('{{1}} {{2}} {{3}}');
    await page.getByRole('button', { name: 'Check the draft' }).click();
    await page.locator('.draft-result').waitFor();
    // Assess
    const rules = await page.locator('.warnings li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-rule')));
    expect(rules).toEqual(expect.arrayContaining(['leading_variable', 'trailing_variable', 'adjacent_variables']));
    expect(await seriousViolations(page)).toEqual([]);
    expect(faults).toEqual([]);
    await screenshot(page, 'templates');
  });
});
