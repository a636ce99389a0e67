import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../local/keys.ts';
import { call } from '../support/api.ts';
import { consoleStack, goTo, newTab, openConsole, screenshot, seriousViolations } from '../support/browser.ts';
import { until } from '../support/until.ts';

/**
 * The money page (issue 45) in Chromium against `npm start`'s stack: client 9 (Gamma Health, a file of its own
 * here) with a price list of Meta's cost plus 20 %, and a delivered send to Brazil and Mexico. Its agent sees
 * prices and never Meta's cost; BSP_CN sees cost, price and margin; the chart's text alternative lists what
 * `GET /v1/usage` sums to.
 */
const stack = consoleStack();
const CLIENT = 9;
const DID = '5511990021';
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const RECIPIENTS = [
  ...Array.from({ length: 4 }, (_, i) => `5511${run}${String(i).padStart(4, '0')}`),
  ...Array.from({ length: 2 }, (_, i) => `52155${run}${String(i).padStart(3, '0')}`),
];
const today = new Date().toISOString().slice(0, 10);
const month = today.slice(0, 7);
const agentToken = () => mintToken({ clientId: CLIENT, campaigns: [51], sub: 'console-money-agent' });

const downloads = mkdtempSync(join(tmpdir(), 'tms-console-downloads-'));
let agent: { context: BrowserContext; page: Page; faults: string[] };
let bsp: { context: BrowserContext; page: Page; faults: string[] };

beforeAll(async () => {
  // Prepare: the price list first (a charge is priced by the list in force when it is made), then a send, delivered
  const list = await call('PUT', `/v1/clients/${CLIENT}/price-list`, {
    token: stack.bspToken,
    body: { effective_from: today, currency: 'USD', markup_percent: 20 },
  });
  expect(list.status).toBe(200);
  const budget = await call('PUT', `/v1/clients/${CLIENT}/budget`, { token: stack.bspToken, body: { monthly_amount: 100 } });
  expect(budget.status).toBe(200);
  const sent = await call('POST', `/v1/template/messages/${DID}`, {
    token: await agentToken(),
    body: {
      did: DID,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: 'appointment_reminder', language: 'pt_BR' },
      recipients: RECIPIENTS.map((to) => ({ to, params: { body: ['amanhã'] } })),
    },
  });
  expect(sent.status).toBe(200);
  await until(
    async () => (await call('GET', `/v1/sends/${sent.body.send_id}`, { token: await agentToken() })).body,
    (s) => s.delivered === RECIPIENTS.length,
    60_000,
  );
  [agent, bsp] = await Promise.all([newTab(), newTab()]);
  await openConsole(agent.page, await agentToken(), 'money');
  await openConsole(bsp.page, stack.bspToken, 'sends');
  await bsp.page.getByLabel('Client').selectOption(String(CLIENT));
  await goTo(bsp.page, 'money');
}, 120_000);
afterAll(async () => {
  rmSync(downloads, { recursive: true, force: true });
  await agent?.context.close();
  await bsp?.context.close();
});

/** The totals the page's text alternative lists: series → figure, as its data attributes carry them. */
async function listedTotals(page: Page): Promise<Record<string, number>> {
  await page.locator('#usage-totals li').first().waitFor();
  const items = await page
    .locator('#usage-totals li')
    .evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-series'), Number(li.getAttribute('data-total'))]));
  return Object.fromEntries(items);
}

/** What `GET /v1/usage` sums to by a group, in the figure the client is billed (its price here: it has a list). */
async function apiTotals(token: string, group: 'market' | 'category'): Promise<Record<string, number>> {
  const usage = await call('GET', `/v1/usage?client_id=${CLIENT}&from=${month}-01&to=${today}&group_by=day,${group}`, { token });
  expect(usage.status).toBe(200);
  const sums: Record<string, number> = {};
  for (const row of usage.body.data as Record<string, any>[]) {
    sums[row[group]] = (sums[row[group]] ?? 0) + row.price;
    sums.all = (sums.all ?? 0) + row.price;
  }
  return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, Math.round(v * 1e6) / 1e6]));
}

describe('the money page (issue 45)', () => {
  it('draws usage by day stacked by market, then by category, its text alternative listing the totals GET /v1/usage gives', async () => {
    // Act
    const byMarket = await listedTotals(agent.page);
    await agent.page.getByRole('radio', { name: 'category' }).check();
    await agent.page.locator('#usage-totals li[data-series="utility"]').waitFor();
    const byCategory = await listedTotals(agent.page);
    // Assess: the same totals as the API's, market by market and category by category
    expect(byMarket).toEqual(await apiTotals(await agentToken(), 'market'));
    expect(Object.keys(byMarket)).toEqual(expect.arrayContaining(['Brazil', 'Mexico', 'all']));
    expect(byCategory).toEqual(await apiTotals(await agentToken(), 'category'));
    // Assess: the chart is drawn (chart.js came with the page) and names its text alternative
    const canvas = agent.page.locator('canvas[role="img"]');
    expect(await canvas.getAttribute('aria-describedby')).toBe('usage-totals');
    expect(await canvas.evaluate((c) => (c as unknown as { width: number }).width)).toBeGreaterThan(0);
    expect(agent.faults).toEqual([]);
  });

  it('switches the stacking from the keyboard', async () => {
    // Prepare: the switch shows categories (the test before)
    await agent.page.getByRole('radio', { name: 'category' }).focus();
    // Act: the arrow key moves within the radio group, as in any form
    await agent.page.keyboard.press('ArrowLeft');
    await agent.page.locator('#usage-totals li[data-series="Brazil"]').waitFor();
    // Assess
    expect(await agent.page.getByRole('radio', { name: 'market' }).isChecked()).toBe(true);
    expect(await listedTotals(agent.page)).toEqual(await apiTotals(await agentToken(), 'market'));
  });

  it('never shows an agent of a client with a price list Meta’s cost, anywhere on the page', async () => {
    // Prepare: the page with every part loaded
    await agent.page.locator('table.statement').waitFor();
    await agent.page.locator('[data-figure="spent"]').waitFor();
    // Act
    const text = await agent.page.locator('main').textContent();
    const headings = await agent.page.locator('main th').allTextContents();
    // Assess: prices, and no cost, no margin, no Meta figure
    expect(headings).toContain('Price');
    expect(text).not.toMatch(/cost|margin|Meta’s figure/i);
    await screenshot(agent.page, 'money-agent');
  });

  it('shows BSP_CN Meta’s cost, the price and the margin in the usage and the statement', async () => {
    // Act
    await bsp.page.locator('table.statement').waitFor();
    await bsp.page.locator('table.usage-table').waitFor();
    const usageHeadings = await bsp.page.locator('table.usage-table th').allTextContents();
    const statementHeadings = await bsp.page.locator('table.statement th').allTextContents();
    // Assess
    expect(usageHeadings).toEqual(expect.arrayContaining(['Meta cost', 'Price', 'Margin']));
    expect(statementHeadings).toEqual(expect.arrayContaining(['Amount', 'Meta cost', 'Margin']));
    expect(bsp.faults).toEqual([]);
    await screenshot(bsp.page, 'money');
  });

  it('shows the month’s budget as the API answers it: spent, reserved and remaining', async () => {
    // Prepare
    const budget = (await call('GET', `/v1/clients/${CLIENT}/budget`, { token: await agentToken() })).body;
    const usd = (n: number) => `${n.toLocaleString('en', { minimumFractionDigits: 4, maximumFractionDigits: 4 })} USD`;
    // Act
    const shown = Object.fromEntries(
      await Promise.all(
        ['spent', 'reserved', 'remaining'].map(async (f) => [f, await agent.page.locator(`[data-figure="${f}"]`).textContent()]),
      ),
    );
    // Assess: the sends settled, so nothing stays reserved
    expect(shown).toEqual({ spent: usd(budget.spent), reserved: usd(budget.reserved), remaining: usd(budget.remaining) });
    expect(budget.spent).toBeGreaterThan(0);
    expect(await agent.page.getByRole('img', { name: /Of 100\.0000 USD: \d+ % spent/ }).count()).toBe(1);
  });

  it('downloads the usage as CSV and the statement as CSV and PDF, with the operator’s token', async () => {
    // Act
    const save = async (button: string) => {
      const [file] = await Promise.all([agent.page.waitForEvent('download'), agent.page.getByRole('button', { name: button }).click()]);
      // The browser runs apart (its own server): the file comes over its connection.
      const path = join(downloads, file.suggestedFilename());
      await file.saveAs(path);
      return { name: file.suggestedFilename(), bytes: readFileSync(path) };
    };
    const usage = await save('Download the usage as CSV');
    const statementCsv = await save('Download the statement as CSV');
    const statementPdf = await save('Download the statement as PDF');
    // Assess
    expect(usage.name).toBe(`usage-${CLIENT}-${month}-by-market.csv`);
    expect(usage.bytes.toString('utf8').split('\n')[0]).toMatch(/^client_id,from,to,period,market,category/);
    expect(statementCsv.bytes.toString('utf8')).toMatch(/^number,client_id,month,status,currency,kind/);
    expect(statementPdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('has no serious or critical accessibility violation, for the agent or BSP_CN', async () => {
    expect(await seriousViolations(agent.page)).toEqual([]);
    expect(await seriousViolations(bsp.page)).toEqual([]);
  });
});
