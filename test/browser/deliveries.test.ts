import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../local/keys.ts';
import { call } from '../support/api.ts';
import { consoleStack, newTab, openConsole, screenshot, seriousViolations } from '../support/browser.ts';
import { until } from '../support/until.ts';

/**
 * The webhook deliveries page (issue 45) in Chromium against `npm start`'s stack: client 10's template event was
 * logged `skipped` while its webhook was off; with the webhook on, Replay from the page sends it again, which the
 * API's log shows (a skipped delivery never moves on its own).
 */
consoleStack();
const CLIENT = 10;
const DID = '15550100031';
const agentToken = () => mintToken({ clientId: CLIENT, campaigns: [], sub: 'console-deliveries-agent' });
const deliveries = async () => (await call('GET', `/v1/webhook/deliveries?size=50`, { token: await agentToken() })).body.data as any[];

let context: BrowserContext;
let page: Page;
let faults: string[];
let skipped: { id: string; event_id: string; type: string };
beforeAll(async () => {
  // Prepare: the webhook off, a template created (its event skipped), then the webhook on
  const off = await call('PUT', '/v1/webhook/config', {
    token: await agentToken(),
    body: { url: 'https://hooks.example.invalid/tms', active: false },
  });
  expect(off.status).toBe(200);
  const created = await call('POST', `/v1/templates/${DID}`, {
    token: await agentToken(),
    body: {
      name: `console_replay_${Math.floor(Math.random() * 1e6)}`,
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Your parcel {{1}} leaves the depot today.', example: { body_text: [['A-1']] } }],
    },
  });
  expect(created.status).toBe(200);
  // Its own template's event: the client's other events (a send's send.completed) may be skipped too.
  const ours = (d: { status: string; type: string }) => d.status === 'skipped' && d.type === 'template.created';
  skipped = (await until(deliveries, (list) => list.some(ours), 30_000)).find(ours);
  const on = await call('PUT', '/v1/webhook/config', {
    token: await agentToken(),
    body: { url: 'https://hooks.example.invalid/tms', active: true },
  });
  expect(on.status).toBe(200);
  ({ context, page, faults } = await newTab());
  await openConsole(page, await agentToken(), 'deliveries');
}, 90_000);
afterAll(() => context?.close());

describe('the webhook deliveries page (issue 45)', () => {
  it('lists the deliveries with their outcome in words', async () => {
    // Act
    const row = page.locator(`tr[data-delivery="${skipped.id}"]`);
    await row.waitFor();
    // Assess
    expect(await row.textContent()).toMatch(/template\.created[\s\S]*Skipped: no active webhook configuration[\s\S]*Not tried yet/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'webhook-deliveries');
  });

  it('replays a delivery from the page: the API’s log shows it sent again', async () => {
    // Act
    await page.getByRole('button', { name: `Replay ${skipped.type} ${skipped.event_id}` }).click();
    await page.locator(`tr[data-delivery="${skipped.id}"]`).getByText('queued again').waitFor();
    // Assess: no longer skipped: tried against the receiver (which does not resolve), so pending or failed
    const replayed = await until(deliveries, (list) => list.find((d) => d.id === skipped.id)?.attempts > 0, 30_000);
    expect(replayed.find((d) => d.id === skipped.id)).toMatchObject({ status: expect.stringMatching(/^(pending|failed)$/) });
    expect(faults).toEqual([]);
  });
});
