import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, tokens } from '../support/api.ts';
import { consoleStack, goTo, newTab, openConsole, screenshot, seriousViolations } from '../support/browser.ts';

/**
 * The sends pages (issue 45) on `npm start`'s stack, where Meta's emulator reports every message sent, then
 * delivered. Client 7's agent sends from its number 5215550001; client 8's agent from its own, 5215550011; client
 * 9's agent the send of 1,000 from 5511990022 (phone number 120022), which no other test sends from: the money page's
 * tests send from 5511990021 and need Meta's statuses there while this one holds them back on its own number.
 */
consoleStack();
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
/** Mexican mobile numbers of this run's own, so no two tests' recipients meet. */
const numbers = (count: number, lane: number) => Array.from({ length: count }, (_, i) => `52${lane}9${run}${String(i).padStart(5, '0')}`);

const ORDER_UPDATE = { name: 'order_update', language: 'en_US' };

async function send(token: string, did: string, to: string[], extra: Record<string, unknown> = {}, template = ORDER_UPDATE) {
  const answer = await call('POST', `/v1/template/messages/${did}`, {
    token,
    body: {
      did,
      type: 'template',
      channel: 'MSGCHAN',
      template,
      recipients: to.map((number, i) => ({ to: `+${number}`, params: { body: [`A-${i}`] } })),
      ...extra,
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.send_id as string;
}

let acme: string;
let context: BrowserContext;
let page: Page;
let faults: string[];
beforeAll(async () => {
  acme = await tokens.acme();
  ({ context, page, faults } = await newTab());
  await openConsole(page, acme);
});
afterAll(() => context?.close());

describe('the sends (issue 45)', () => {
  let sendId: string;

  it('shows a send of 1,000 started through the API, its progress bar rising to 100 % without a reload', async () => {
    // Prepare: Meta reports nothing of this number's messages while it runs: the bar counts what the dispatcher
    // settled, and 2,000 status webhooks would only make the test slower (103 s against 20 s on a loaded machine)
    await emulator('POST', 'numbers/120022/statuses', { statuses: [] });
    const gamma = await tokens.gamma();
    const { context: own, page: agent, faults: thrown } = await newTab();
    try {
      await openConsole(agent, gamma);
      await agent.evaluate('window.notReloaded = true');
      // Act
      const big = await send(gamma, '5511990022', numbers(1000, 1), {}, { name: 'appointment_reminder', language: 'pt_BR' });
      // Assess: the send appears, and its bar only ever rises, to 100 % (read from the DOM as it changes)
      const bar = agent.locator(`[data-send-id="${big}"] [role="progressbar"]`);
      await bar.waitFor();
      const seen: number[] = [];
      while (seen.at(-1) !== 100) {
        seen.push(Number(await bar.getAttribute('aria-valuenow')));
        await agent.waitForTimeout(100);
      }
      expect(seen.slice(1).every((value, i) => value >= seen[i])).toBe(true);
      expect(seen[0]).toBeLessThan(100);
      expect(await agent.evaluate('window.notReloaded')).toBe(true);
      expect([await bar.getAttribute('aria-valuemin'), await bar.getAttribute('aria-valuemax')]).toEqual(['0', '100']);
      // Assess: the API agrees: every recipient settled
      const status = (await call('GET', `/v1/sends/${big}`, { token: gamma })).body;
      expect([status.total, status.pending]).toEqual([1000, 0]);
      expect(await seriousViolations(agent)).toEqual([]);
      expect(thrown).toEqual([]);
    } finally {
      await emulator('POST', 'numbers/120022/statuses', { statuses: ['sent', 'delivered'] });
      await own.close();
    }
    // No bound on the send's own time but the test's: ~20 s on this machine while it is loaded.
  }, 600_000);

  it('lists a send’s recipients filtered by status, with the totals the API has', async () => {
    // Prepare: a send of 20, every one delivered
    sendId = await send(acme, '5215550001', numbers(20, 5));
    await goTo(page, 'sends');
    await page.locator(`[data-send-id="${sendId}"] [role="progressbar"][aria-valuenow="100"]`).waitFor({ timeout: 0 });
    let delivered = 0;
    while (delivered < 20) {
      await page.waitForTimeout(200);
      delivered = (await call('GET', `/v1/sends/${sendId}`, { token: acme })).body.delivered;
    }
    await page.locator(`[data-send-id="${sendId}"]`).getByText('delivered 20').waitFor();
    await goTo(page, `sends/${sendId}`);
    // Act
    await page.getByLabel('Show').selectOption('delivered');
    // Assess: the count is the API's, and every row shown is delivered
    await page.getByText('20 recipients delivered').waitFor();
    const statuses = await page.locator('table.recipients tbody tr td:nth-child(3)').allTextContents();
    expect(statuses).toEqual(Array(20).fill('delivered'));
    expect((await call('GET', `/v1/sends/${sendId}/recipients?status=delivered`, { token: acme })).body.total).toBe(20);
    expect(await seriousViolations(page)).toEqual([]);
    expect(faults).toEqual([]);
    await screenshot(page, 'send');
  });

  it('never shows an agent another client’s send, in the list or at its address', async () => {
    // Prepare: a send of client 8
    const other = await send(await tokens.beta(), '5215550011', numbers(3, 2));
    // Act: client 7's agent looks at its sends, then at the other send's address
    await goTo(page, 'sends');
    await page.locator('[data-send-id]').first().waitFor();
    const listed = await page.locator('[data-send-id]').evaluateAll((items) => items.map((item) => item.getAttribute('data-send-id')));
    const text = await page.locator('main').textContent();
    await goTo(page, `sends/${other}`);
    const refused = await page.getByRole('alert').textContent();
    // Assess: nowhere; the address is refused in words, nothing of the send shown
    expect(listed).toContain(sendId);
    expect(listed).not.toContain(other);
    expect(text).not.toContain(other);
    expect(refused).toMatch(/Reading the send failed: .+\(HTTP 40[34].*Request id: /);
    expect(await page.getByRole('progressbar').count()).toBe(0);
    // Assess: BSP_CN, picking client 8, does see it (the check above can fail)
    const { context: own, page: bsp } = await newTab();
    try {
      await openConsole(bsp, await tokens.bsp());
      await bsp.getByLabel('Client').selectOption('8');
      await bsp.locator(`[data-send-id="${other}"]`).waitFor();
    } finally {
      await own.close();
    }
  });

  it('cancels a send from the keyboard, only once the operator confirms, as the API then says', async () => {
    // Prepare: a send scheduled an hour ahead (nothing goes before it)
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await send(acme, '5215550001', numbers(5, 3), { send_at: sendAt });
    await goTo(page, `sends/${scheduled}`);
    const cancel = page.getByRole('button', { name: 'Cancel the send' });
    // Act: asked, then kept (Escape closes the question)
    await cancel.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    const kept = (await call('GET', `/v1/sends/${scheduled}`, { token: acme })).body.status;
    // Act: asked again, confirmed
    await cancel.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.locator('.badge.status-cancelled').first().waitFor();
    // Assess
    expect(kept).toBe('scheduled');
    expect((await call('GET', `/v1/sends/${scheduled}`, { token: acme })).body.status).toBe('cancelled');
    expect(faults).toEqual([]);
  });

  it('asks before a resend, and says in words, with the request id, when there is nothing to resend', async () => {
    // Prepare: the completed send of 20, none of whose recipients failed
    await goTo(page, `sends/${sendId}`);
    const resend = page.getByRole('button', { name: 'Resend the failed' });
    // Act: asked, kept; asked again, confirmed
    await resend.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Keep it as it is' }).click();
    const before = (await call('GET', `/v1/sends/${sendId}`, { token: acme })).body.resent_as;
    await resend.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resend' }).click();
    const refusal = await page.getByRole('alert').filter({ hasText: 'Resend the failed failed' }).textContent();
    // Assess
    expect(before).toBeUndefined();
    expect(refusal).toMatch(/no failed recipients to resend \(HTTP 409, nothing_to_resend\)Request id: \S+/);
  });

  it('shows an A/B send’s variants with their recipients and rates, its test first, and once decided the winner and why', async () => {
    // Prepare: a test-first send of 40 of order_update in English and Spanish (by the read rate), the Spanish read
    const to = numbers(40, 6);
    const answer = await call('POST', '/v1/template/messages/5215550001', {
      token: acme,
      body: {
        did: '5215550001',
        type: 'template',
        channel: 'MSGCHAN',
        variants: [
          { template: 'order_update', language: 'en_US', weight: 1 },
          { template: 'order_update', language: 'es', weight: 1 },
        ],
        test: { share: 0.5, wait_seconds: 600, metric: 'read' },
        recipients: to.map((number, i) => ({ to: `+${number}`, params: { body: [`AB-${i}`] } })),
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const abId = answer.body.send_id as string;
    const tested = answer.body.test.test_recipients as number;
    const status = async () => (await call('GET', `/v1/sends/${abId}`, { token: acme })).body;
    while ((await status()).delivered < tested) await page.waitForTimeout(200);
    const rows = (await call('GET', `/v1/sends/${abId}/recipients?size=100`, { token: acme })).body.data as Record<string, any>[];
    const spanish = rows.filter((r) => r.variant === 1);
    for (const r of spanish) await emulator('POST', `messages/${encodeURIComponent(r.message_id)}/status`, { status: 'read' });
    while ((await status()).read < spanish.length) await page.waitForTimeout(200);
    await goTo(page, `sends/${abId}`);
    const variants = page.getByRole('table', { name: /Each person gets one variant/ });
    // The Spanish read rate in the send's performance (its own section), as the page asks it again
    const performance = page.getByRole('table', { name: 'Performance by variant' });
    await performance
      .getByRole('row', { name: /order_update \(es\)/ })
      .getByText(/^100\.0 % \(/)
      .first()
      .waitFor();
    const due = await page.locator('.test-first').textContent();
    expect(await seriousViolations(page)).toEqual([]);
    // Act: the wait is over (the test's schedule run now)
    const ran = await (await fetch(`${consoleStack().apiUrl}/_local/schedules/test-${abId}/run`, { method: 'POST' })).json();
    const decided = await page.getByRole('status').filter({ hasText: 'Winner:' }).textContent();
    // Assess: the page says who won and why, as the API has it, and marks the winner among the variants
    const after = await status();
    expect(ran).toEqual({ ran: 1 });
    expect(due).toMatch(
      /^Tested first50\.0 % of the people \(\d+\) got the variants; the rest \(\d+\) gets the variant with the best read rate at /,
    );
    expect(decided).toMatch(/^Winner: order_update \(es\), significantly better at 95 %\. order_update \(es\) won: the best read rate/);
    expect(decided).toContain(after.test.decision.reason);
    expect(
      await variants
        .getByRole('row', { name: /order_update \(es\)/ })
        .getByText('winner')
        .count(),
    ).toBe(1);
    const figures = await page
      .getByRole('table', { name: /The figures the decision was made on/ })
      .locator('tbody tr')
      .allTextContents();
    expect(figures).toHaveLength(2);
    expect(figures[1]).toContain(`${spanish.length}${spanish.length}100.0 %`);
    expect(await seriousViolations(page)).toEqual([]);
    expect(faults).toEqual([]);
    await screenshot(page, 'send-ab');
    // The rest goes before the next test pauses the Spanish template
    while ((await status()).pending > 0) await page.waitForTimeout(200);
  });

  it('shows a paused send’s template pause and when it ends', async () => {
    // Prepare: a send of the Spanish order_update (Meta's template 9002, which no test sends after this one)
    const paused = await send(acme, '5215550001', numbers(50, 4), {}, { name: 'order_update', language: 'es' });
    await goTo(page, `sends/${paused}`);
    // Act: Meta pauses the template for 20 s (its status event; 132015 for its messages meanwhile)
    await emulator('POST', 'templates/9002/pause', { seconds: 20 });
    // Assess: the page says so, with the time the pause ends by, as the API has it
    const note = page.locator('p.paused');
    await note.waitFor();
    const until = (await call('GET', `/v1/sends/${paused}`, { token: acme })).body.paused_until;
    expect(await note.textContent()).toMatch(
      /^Paused: Meta paused the template order_update \(es\) for its quality; the pause ends by .+, then the send goes on\./,
    );
    expect(await note.locator('time').getAttribute('datetime')).toBe(until);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'send-paused');
    // Assess: the list says so too; its picture shows this file's sends (paused, cancelled, completed)
    await goTo(page, 'sends');
    await page.locator(`[data-send-id="${paused}"] p.paused`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'sends');
  });
});
