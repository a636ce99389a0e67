import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../local/keys.ts';
import { consoleStack, goTo, newTab, openConsole, screenshot, seriousViolations } from '../support/browser.ts';

const stack = consoleStack();
let context: BrowserContext;
let page: Page;
let faults: string[];
beforeAll(async () => {
  ({ context, page, faults } = await newTab());
});
afterAll(() => context?.close());

describe('the console’s shell (issue 45)', () => {
  it('is served at /console as one page, gzipped, that signs in by token on the local stack', async () => {
    // Act
    const page = await fetch(`${stack.apiUrl}/console`, { headers: { 'accept-encoding': 'gzip' } });
    const html = await page.text();
    // Assess: its script and style inline, allowed by hash and nothing else; the printed address signs in
    expect([page.status, page.headers.get('content-type'), page.headers.get('content-encoding')]).toEqual([
      200,
      'text/html; charset=utf-8',
      'gzip',
    ]);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+';/);
    expect(html).toContain('<script type="application/json" id="console-config">{"signIn":"token"}</script>');
    expect(stack.out).toContain(`Console as BSP_CN (picks a client): ${stack.apiUrl}/console#token=${stack.bspToken}`);
  });

  it('signs in with the printed BSP_CN token, drops it from the address, and lets BSP_CN pick any client', async () => {
    // Act
    await openConsole(page, stack.bspToken);
    // Assess: the token is kept for the tab, not in the address
    expect(page.url()).not.toContain('token=');
    expect(await page.evaluate(() => sessionStorage.getItem('tms-console-token'))).toBe(stack.bspToken);
    const picker = page.getByLabel('Client');
    expect(await picker.locator('option').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^7 · /), expect.stringMatching(/^8 · /)]),
    );
    // Act: another client
    await picker.selectOption('8');
    // Assess: the pages show that one, and after a reload still
    await page.reload();
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    expect(await page.getByLabel('Client').inputValue()).toBe('8');
    await page.getByLabel('Client').selectOption('7');
    // Assess: nothing thrown, nothing its Content-Security-Policy refused
    expect(faults).toEqual([]);
  });

  it('shows an agent its own client only, with no picker', async () => {
    // Prepare
    const { context: own, page: agent } = await newTab();
    try {
      // Act
      await openConsole(agent, await mintToken({ clientId: 8, campaigns: [1], sub: 'console-agent-8' }));
      // Assess
      expect(await agent.locator('.top .client').textContent()).toMatch(/^Client 8/);
      expect(await agent.getByLabel('Client').count()).toBe(0);
    } finally {
      await own.close();
    }
  });

  it('shows an API error in words with its request id', async () => {
    // Act
    await goTo(page, 'sends/no-such-send');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    // Assess
    expect(await alert.textContent()).toMatch(/Reading the send failed: .+\(HTTP 404, not_found\)Request id: \S+/);
  });

  it('asks for a token when it has none, and again when the API refuses it', async () => {
    // Prepare
    const { context: own, page: fresh } = await newTab();
    try {
      // Act: no token
      await fresh.goto(`${stack.apiUrl}/console`);
      await fresh.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      // Act: a token the API refuses
      await fresh.getByLabel(/Bearer token/).fill('not.a.token');
      await fresh.getByRole('button', { name: 'Sign in' }).click();
      // Assess
      await fresh.getByRole('alert').filter({ hasText: 'refused that token' }).waitFor();
      expect(await seriousViolations(fresh)).toEqual([]);
      await screenshot(fresh, 'sign-in');
    } finally {
      await own.close();
    }
  });
});
