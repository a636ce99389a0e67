import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * Budgets on what was spent (decisions §27, issue 42), on the running local stack. Client 549 has a budget of 100
 * USD; its number's messages are reported sent and delivered. A send of 100 with 10 refused, a send of 2,000
 * cancelled partway, then a resend of 5 of the refused: at each step `spent` is what the delivered messages
 * cost, to the cent, `reserved` what is still unsettled, and `remaining` the budget less both.
 */
const client = new OwnClient(549);
const MONTHLY = 100;
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const numberOf = (batch: number, i: number) => `52${run}${batch}${String(i).padStart(4, '0')}`;
const cents = (amount: number) => Math.round(amount * 100);
const budget = async () => (await call('GET', `/v1/clients/${client.clientId}/budget`, { token: await client.token() })).body;
const refuse = (to: string, code: number) =>
  emulator('POST', 'faults', { path: `/${client.numberId}/messages`, body: `"to":"${to}"`, status: 400, code, times: 1 });
/** A send once every recipient settled and every sent message's delivery came back. */
const settled = (sendId: string) =>
  until(
    () => client.status(sendId),
    (s) => s.pending === 0 && s.delivered === s.sent,
    120_000,
  );

beforeAll(async () => {
  await client.seed('Spends', [demoTemplateAs('order_update', { id: 't549' })]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
  const set = await call('PUT', `/v1/clients/${client.clientId}/budget`, { token: await tokens.bsp(), body: { monthly_amount: MONTHLY } });
  expect(set.status).toBe(200);
}, 60_000);

describe('a budget on what was spent (decisions §27)', () => {
  const costs: number[] = [];
  let first: string;

  it('counts a send’s delivered messages as spent and gives back what its refused ones reserved', { timeout: 150_000 }, async () => {
    // Prepare: 10 of 100 refused, 5 of them worth another try
    const numbers = Array.from({ length: 100 }, (_, i) => numberOf(1, i));
    for (const [k, to] of numbers.slice(0, 10).entries()) await refuse(to, k < 5 ? 131026 : 131047);
    // Act
    const accepted = await client.send('order_update', numbers);
    first = accepted.body.send_id;
    const done = await settled(first);
    const shown = await budget();
    // Assess
    expect(done).toMatchObject({ sent: 90, failed: 10, delivered: 90 });
    costs.push(done.cost.amount);
    expect(cents(shown.spent)).toBe(cents(done.cost.amount));
    expect(shown.reserved).toBe(0);
    expect(cents(shown.remaining)).toBe(cents(MONTHLY - shown.spent));
  });

  it('gives back what a cancelled send’s unsent recipients reserved', { timeout: 150_000 }, async () => {
    // Prepare: a send of 2,000, its first messages out
    const numbers = Array.from({ length: 2000 }, (_, i) => numberOf(2, i));
    const accepted = await client.send('order_update', numbers);
    const sendId = accepted.body.send_id;
    await until(
      () => client.status(sendId),
      (s) => s.sent >= 90,
      60_000,
      100,
    );
    const during = await budget();
    // Act
    await call('POST', `/v1/sends/${sendId}/cancel`, { token: await client.token() });
    const done = await settled(sendId);
    const shown = await budget();
    // Assess: reserved while it ran, nothing once every recipient settled
    expect(during.reserved).toBeGreaterThan(0);
    expect(done.cancelled).toBeGreaterThan(0);
    costs.push(done.cost.amount);
    expect(cents(shown.spent)).toBe(cents(costs[0] + costs[1]));
    expect(shown.reserved).toBe(0);
    expect(cents(shown.remaining)).toBe(cents(MONTHLY - shown.spent));
  });

  it('reserves a resend for the recipients it resends alone, and counts them once delivered', { timeout: 150_000 }, async () => {
    // Act
    const resent = await call('POST', `/v1/sends/${first}/resend`, { token: await client.token(), body: { which: 'failed' } });
    const done = await settled(resent.body.send_id);
    const shown = await budget();
    // Assess
    expect(resent.status).toBe(200);
    expect(done).toMatchObject({ total: 5, sent: 5, delivered: 5 });
    costs.push(done.cost.amount);
    expect(cents(shown.spent)).toBe(cents(costs[0] + costs[1] + costs[2]));
    expect(shown.reserved).toBe(0);
    expect(cents(shown.remaining)).toBe(cents(MONTHLY - shown.spent));
  });
});
