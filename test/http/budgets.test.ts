import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { call, expectErrorShape, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * Clients' monthly budgets on the running local stack (decisions §24, issue 34): BSP_CN sets them; a send's
 * estimate is checked and reserved in one conditional write. Client 541 sends 10 Argentine recipients of a
 * UTILITY template a time: an estimate of 10 × the card's Argentina utility rate in force today.
 */
const client = new OwnClient(541);
const CLIENT = client.clientId;
const ESTIMATE = (10 * rateCards.priceMicros('Argentina', 'utility', new Date().toISOString().slice(0, 10))) / 1e6;
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const owner = client.token;
const budget = async (monthly_amount: unknown, as = tokens.bsp) =>
  call('PUT', `/v1/clients/${CLIENT}/budget`, { token: await as(), body: { monthly_amount } });

let batch = 0;
const sendTen = () => {
  const b = batch++;
  return client.send(
    'order_update',
    Array.from({ length: 10 }, (_, i) => `549${run}${b}${String(i).padStart(4, '0')}`),
  );
};

beforeAll(() => client.seed('Budgets', [demoTemplateAs('order_update', { id: 't541' })]), 60_000);

describe('a client’s monthly budget (decisions §24)', () => {
  it('is BSP_CN’s to set: an agent gets 403, an unknown client 404, a negative or missing amount 400', async () => {
    // Prepare / Act
    const agent = await budget(10, owner);
    const unknown = await call('PUT', '/v1/clients/999999999/budget', { token: await tokens.bsp(), body: { monthly_amount: 10 } });
    const negative = await budget(-1);
    const missing = await call('PUT', `/v1/clients/${CLIENT}/budget`, { token: await tokens.bsp(), body: {} });
    // Assess
    expectErrorShape(agent, 403);
    expectErrorShape(unknown, 404);
    expectErrorShape(negative, 400);
    expectErrorShape(missing, 400);
  });

  it('lets exactly one of two concurrent sends through a budget with room for one, and warns past 80 %', async () => {
    // Prepare: room for one estimate, not two (the one takes the month to 83 %)
    const room = ESTIMATE * 1.2;
    await budget(null);
    const set = await budget(room);
    const reservedBefore = set.body.reserved as number;
    await budget(reservedBefore + room);
    // Act
    const answers = await Promise.all([sendTen(), sendTen()]);
    const shown = await call('GET', `/v1/clients/${CLIENT}/budget`, { token: await owner() });
    // Assess
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 409);
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(accepted[0].body.estimate.amount).toBe(ESTIMATE);
    expect(accepted[0].body.warnings).toEqual([expect.objectContaining({ code: 'budget_80_percent' })]);
    expectErrorShape(refused[0], 409, 'budget_exceeded');
    expect(refused[0].body).toMatchObject({ estimate: ESTIMATE });
    expect(refused[0].body.remaining).toBeCloseTo(room - ESTIMATE, 6);
    expect(shown.body).toMatchObject({ client_id: CLIENT, currency: 'USD', month: new Date().toISOString().slice(0, 7) });
    expect(shown.body.reserved).toBeCloseTo(reservedBefore + ESTIMATE, 6);
    expect(shown.body.remaining).toBeCloseTo(room - ESTIMATE, 6);
  });

  it('refuses nothing once the budget is removed', async () => {
    // Prepare
    await budget(null);
    // Act
    const answer = await sendTen();
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.warnings).toBeUndefined();
  });
});
