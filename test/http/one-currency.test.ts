import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { apiUrl, call, emulator, expectErrorShape, tokens } from '../support/api.ts';
import { mixedCurrencies } from '../support/one-currency.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * One currency per figure on the running local stack (decisions §31, issue 53 item 6): client 676's WABA is billed
 * in USD (the emulator's unless set) and its price list is in EUR, Meta's cost + 20 % at 0.92 EUR a USD. Its budget
 * is set in USD. A MARKETING send to three Mexican numbers, all delivered. Every money GET route's JSON answer, to
 * BSP_CN and to the agent, is searched for a figure of two currencies (test/support/one-currency.ts), and the
 * budget's figures are its own currency's: what a delivered message spends is its cost in USD, not its EUR price.
 */
const client = new OwnClient(676);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const MEXICO = Array.from({ length: 3 }, (_, i) => `52${run}6${String(i).padStart(4, '0')}`);
/** Euros per dollar: not a whole number, so a price cannot equal a cost by chance. */
const USD_RATE = 0.92;
const BUDGET = `/v1/clients/${client.clientId}/budget`;
const today = () => new Date().toISOString().slice(0, 10);
const month = () => today().slice(0, 7);

let sendId: string;

beforeAll(async () => {
  await client.seed('Euros', [demoTemplateAs('order_update', { id: 't676', category: 'MARKETING' })]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
  const list = await call('PUT', `/v1/clients/${client.clientId}/price-list`, {
    token: await tokens.bsp(),
    body: { effective_from: today(), currency: 'EUR', markup_percent: 20, exchange_rates: { USD: USD_RATE } },
  });
  expect(list.status).toBe(200);
}, 60_000);

/** A GET's JSON body, as the client's agent or as BSP_CN. */
async function getJson(path: string, token: string) {
  const response = await fetch(`${apiUrl()}${path}`, { headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** Every money GET route's JSON answers of the client: usage by each group. */
function moneyPaths() {
  const period = `from=${today()}&to=${today()}`;
  const groups = ['day', 'month', 'market', 'category', 'did', 'market,category', 'template', 'send', 'template,category'];
  return [
    `/v1/sends/${sendId}`,
    '/v1/sends?size=50',
    `/v1/sends/${sendId}/recipients?size=50`,
    ...groups.map((group) => `/v1/usage?${period}&group_by=${group}&client_id=${client.clientId}`),
    BUDGET,
    `/v1/clients/${client.clientId}/statements/${month()}`,
    `/v1/clients/${client.clientId}/price-list`,
  ];
}

describe('a budget in one currency that says it (decisions §31)', () => {
  it('is 400 for a currency that is not an ISO 4217 code, in the contract’s error shape', async () => {
    // Act
    const answer = await call('PUT', BUDGET, { token: await tokens.bsp(), body: { monthly_amount: 10, currency: 'euro' } });
    // Assess
    const error = expectErrorShape(answer, 400);
    expect(error.details?.map((d) => d.path)).toContain('currency');
  });

  it('is in the price list’s EUR unless given, and a send past it is 409 naming EUR', async () => {
    // Prepare: a budget of one micro-euro
    const set = await call('PUT', BUDGET, { token: await tokens.bsp(), body: { monthly_amount: 0.000001 } });
    // Act
    const refused = await client.send('order_update', MEXICO);
    // Assess
    expect(set.body).toMatchObject({ currency: 'EUR', monthly_amount: 0.000001 });
    const error = expectErrorShape(refused, 409, 'budget_exceeded');
    expect(error.message).toMatch(/EUR\) exceeds .* \(0\.000001 EUR\)$/);
  });

  it('set in USD counts the delivered messages at their USD cost, not their EUR price', async () => {
    // Prepare
    const set = await call('PUT', BUDGET, { token: await tokens.bsp(), body: { monthly_amount: 100, currency: 'USD' } });
    // Act
    const accepted = await client.send('order_update', MEXICO);
    sendId = accepted.body.send_id;
    await until(
      () => client.status(sendId),
      (s) => s.delivered === MEXICO.length,
      60_000,
    );
    const shown = await until(
      async () => (await call('GET', BUDGET, { token: await client.token() })).body,
      (b) => b.spent > 0 && b.reserved === 0,
      30_000,
    );
    // Assess
    expect(set.body.currency).toBe('USD');
    const cost = MEXICO.length * rateCards.priceMicros('Mexico', 'marketing', today());
    expect(shown).toMatchObject({ currency: 'USD', spent: cost / 1e6, reserved: 0, remaining: (100e6 - cost) / 1e6 });
  }, 90_000);
});

describe('no money answer mixes currencies (decisions §31)', () => {
  it('walks every money GET route as BSP_CN and as the agent: no margin, total or budget of two currencies', async () => {
    // Prepare
    const callers = { bsp: await tokens.bsp(), agent: await client.token() };
    // Act
    const answers = await Promise.all(
      Object.entries(callers).flatMap(([who, token]) => moneyPaths().map(async (path) => ({ who, path, ...(await getJson(path, token)) }))),
    );
    // Assess: each answers, and none holds a figure of two currencies
    for (const { who, path, status, body } of answers) {
      expect(status, `${who} ${path}`).toBe(200);
      expect(mixedCurrencies(body, { budgetCurrency: 'USD' }), `${who} ${path}`).toEqual([]);
    }
    const send = answers.find((a) => a.who === 'bsp' && a.path === `/v1/sends/${sendId}`)?.body as Record<string, any>;
    expect(send).toMatchObject({ cost: { currency: 'USD' }, price: { currency: 'EUR' } });
    expect(send).not.toHaveProperty('margin');
  }, 60_000);
});
