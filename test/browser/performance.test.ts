import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../local/keys.ts';
import { rateText } from '../../console/src/pages/performance-data.ts';
import { call, emulator } from '../support/api.ts';
import { consoleStack, goTo, newTab, openConsole, screenshot, seriousViolations } from '../support/browser.ts';
import { until } from '../support/until.ts';

/**
 * Which template worked (decisions §33), in Chromium against `npm start`'s stack (which reports every message sent,
 * then delivered): client 10's template of this run alone, approved by Meta, sent to 40 people of whom the
 * emulator's people answer 14 (10 press a quick-reply button, 4 write back quoting the message). A send's page shows
 * its performance as `GET /v1/sends/{id}/performance` gives it; the templates performance page its template's
 * figures, chart totals and rows as `GET /v1/templates/performance` gives them. The browser project's stack holds
 * the demo directory only: client 10 (its number 15550100031) is the demo's, and this run's template and people are
 * its own, so no other test's figures meet it.
 */
const stack = consoleStack();
const CLIENT = 10;
const DID = '15550100031';
const run = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
const TEMPLATE = `perf_${run}`;
const PEOPLE = Array.from({ length: 40 }, (_, i) => `5219${run}${String(i).padStart(3, '0')}`);
const agentToken = () => mintToken({ clientId: CLIENT, campaigns: [], sub: 'console-performance-agent' });
const today = new Date().toISOString().slice(0, 10);

let sendId: string;
let context: BrowserContext;
let page: Page;
let faults: string[];

beforeAll(async () => {
  // Prepare: the template created and approved, the send delivered, then the people's answers counted
  const created = await call('POST', `/v1/templates/${DID}`, {
    token: await agentToken(),
    body: {
      name: TEMPLATE,
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Your offer {{1}} is ready.', example: { body_text: [['A-1']] } }],
    },
  });
  expect(created.status).toBe(200);
  await emulator('POST', `templates/${created.body.id}/status`, { status: 'APPROVED' });
  await until(
    async () => (await call('GET', `/v1/templates?client_id=${CLIENT}&name=${TEMPLATE}`, { token: stack.bspToken })).body.data,
    (entries: { meta_template: { status: string } }[]) => entries?.[0]?.meta_template.status === 'APPROVED',
    30_000,
  );
  const sent = await call('POST', `/v1/template/messages/${DID}`, {
    token: await agentToken(),
    body: {
      did: DID,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: TEMPLATE, language: 'en_US' },
      recipients: PEOPLE.map((to, i) => ({ to, params: { body: [`O-${i}`] } })),
    },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  sendId = sent.body.send_id;
  await until(
    async () => (await call('GET', `/v1/sends/${sendId}`, { token: await agentToken() })).body,
    (s) => s.delivered === PEOPLE.length,
    60_000,
  );
  await emulator('POST', 'replies', { send_id: sendId, every: 4, button: { payload: 'YES', text: 'Yes' } });
  await emulator('POST', 'replies', { send_id: sendId, skip: 1, every: 10, text: 'Tell me more' });
  await until(
    async () => (await call('GET', `/v1/sends/${sendId}/performance`, { token: await agentToken() })).body,
    (p) => p.totals?.replied === 14,
    30_000,
  );
  ({ context, page, faults } = await newTab());
  await openConsole(page, await agentToken(), `sends/${sendId}`);
}, 150_000);
afterAll(() => context?.close());

describe('a send’s performance (decisions §33)', () => {
  it('shows each variant’s figures and rates with their 95 % intervals, as the API gives them', async () => {
    // Prepare
    const api = (await call('GET', `/v1/sends/${sendId}/performance`, { token: await agentToken() })).body;
    const row = page.locator('table.performance tr[data-variant="0"]');
    // Act
    await row.locator('[data-figure="replied"]').filter({ hasText: '14' }).waitFor();
    // Assess
    expect(await row.locator('th').textContent()).toBe(`1: ${TEMPLATE} (en_US)`);
    expect(await row.locator('[data-figure="reply-rate"]').textContent()).toBe(rateText(api.variants[0].reply_rate));
    expect(await row.locator('[data-figure="read-rate"]').textContent()).toBe(rateText(api.variants[0].read_rate));
    expect(await row.locator('[data-figure="buttons"]').textContent()).toBe('Yes 10');
    expect(await page.locator('table.recipients td[data-reply="replied"]').first().textContent()).toBe('pressed “Yes”');
    expect(await seriousViolations(page)).toEqual([]);
    expect(faults).toEqual([]);
    await screenshot(page, 'send-performance');
  });
});

describe('the templates performance page (decisions §33)', () => {
  it('draws the template’s replies by day with its totals in words, and lists its rows, as the API gives them', async () => {
    // Prepare
    const api = (await call('GET', `/v1/templates/performance?from=${today}&to=${today}`, { token: await agentToken() })).body;
    const own = api.templates.find((t: { template: string }) => t.template === TEMPLATE);
    // Act
    await goTo(page, 'performance');
    const total = page.locator(`#template-totals li[data-series="${TEMPLATE} (en_US)"]`);
    await total.waitFor();
    // Assess
    expect(own).toMatchObject({ sent: 40, delivered: 40, replied: 14, buttons: { Yes: 10 } });
    expect(Number(await total.getAttribute('data-total'))).toBe(own.replied);
    expect(await page.locator(`table.templates-performance tr[data-template="${TEMPLATE}"] [data-figure="replied"]`).textContent()).toBe(
      '14',
    );
    const days = page.locator(`table.template-days tr[data-template="${TEMPLATE}"]`);
    expect(await days.count()).toBe(api.data.filter((r: { template: string }) => r.template === TEMPLATE).length);
    expect(await page.locator('canvas[role="img"]').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    expect(faults).toEqual([]);
    await screenshot(page, 'template-performance');
  });
});
