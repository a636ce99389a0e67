import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { call, emulator, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * What a client pays (decisions §27, issue 42), on the running local stack: client 550's price list is Meta's cost
 * plus 20 %, with a fixed price for marketing to Mexico. A MARKETING send to 10 Mexican and 10 Brazilian numbers,
 * all delivered: its agent sees the price and never Meta's cost; BSP_CN sees cost, price and margin.
 */
const client = new OwnClient(550);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const MEXICO = Array.from({ length: 10 }, (_, i) => `52${run}1${String(i).padStart(4, '0')}`);
const BRAZIL = Array.from({ length: 10 }, (_, i) => `55${run}1${String(i).padStart(4, '0')}`);
const FIXED_MEXICO = 0.05;
const today = () => new Date().toISOString().slice(0, 10);
const micros = (amount: number) => Math.round(amount * 1e6);
/** Brazil's marketing rate today plus 20 %, as the list prices it (to the micro-unit). */
const brazilPrice = () => Math.round((rateCards.priceMicros('Brazil', 'marketing', today()) * 120) / 100) / 1e6;
/** Meta's cost of the send in micro-units, as any figure could give it away: a message's, a market's, the send's. */
const costFigures = () => {
  const [mexico, brazil] = [rateCards.priceMicros('Mexico', 'marketing', today()), rateCards.priceMicros('Brazil', 'marketing', today())];
  return [mexico, brazil, 10 * mexico, 10 * brazil, 10 * (mexico + brazil)];
};
/** Every number in a body, as given and as micro-units of an amount. */
const numbersIn = (value: unknown): number[] => {
  if (typeof value === 'number') return [value, micros(value)];
  if (value && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
};

let sendId: string;

beforeAll(async () => {
  await client.seed('Priced', [demoTemplateAs('order_update', { id: 't550', category: 'MARKETING' })]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
  const list = await call('PUT', `/v1/clients/${client.clientId}/price-list`, {
    token: await tokens.bsp(),
    body: { effective_from: today(), currency: 'USD', markup_percent: 20, prices: { Mexico: { marketing: FIXED_MEXICO } } },
  });
  expect(list.status).toBe(200);
  const accepted = await client.send('order_update', [...MEXICO, ...BRAZIL]);
  expect(accepted.status).toBe(200);
  sendId = accepted.body.send_id;
  await until(
    () => client.status(sendId),
    (s) => s.delivered === 20,
    60_000,
  );
}, 90_000);

describe('a client’s price (decisions §27)', () => {
  it('shows its agent each recipient’s price, the send’s, its usage and statement, and no cost anywhere', async () => {
    // Act
    const send = await call('GET', `/v1/sends/${sendId}`, { token: await client.token() });
    const recipients = await call('GET', `/v1/sends/${sendId}/recipients?size=50`, { token: await client.token() });
    const list = await call('GET', `/v1/sends?size=50`, { token: await client.token() });
    const usage = await call('GET', `/v1/usage?from=${today()}&to=${today()}&group_by=market,category`, { token: await client.token() });
    const statement = await call('GET', `/v1/clients/${client.clientId}/statements/${today().slice(0, 7)}`, {
      token: await client.token(),
    });
    // Assess
    expect(micros(send.body.price.amount)).toBe(micros(10 * FIXED_MEXICO + 10 * brazilPrice()));
    expect(send.body.price.currency).toBe('USD');
    for (const row of recipients.body.data as { to: string; price: number }[])
      expect(row.price).toBe(row.to.startsWith('52') ? FIXED_MEXICO : brazilPrice());
    const byMarket = Object.fromEntries((usage.body.data as { market: string; price: number }[]).map((r) => [r.market, r.price]));
    expect(micros(byMarket.Mexico)).toBe(micros(10 * FIXED_MEXICO));
    expect(micros(byMarket.Brazil)).toBe(micros(10 * brazilPrice()));
    expect(statement.status).toBe(200);
    expect(micros(statement.body.statements[0].totals.amount)).toBe(micros(send.body.price.amount));
    const lines = (statement.body.statements[0].lines as { market: string; unit_price: number; amount: number }[]).filter(
      (l) => l.market === 'Mexico' || l.market === 'Brazil',
    );
    expect(lines.map((l) => [l.market, l.unit_price, micros(l.amount)]).sort()).toEqual([
      ['Brazil', micros(brazilPrice()), micros(10 * brazilPrice())],
      ['Mexico', micros(FIXED_MEXICO), micros(10 * FIXED_MEXICO)],
    ]);
    const bodies = [send.body, recipients.body, list.body, usage.body, statement.body];
    const everything = JSON.stringify(bodies);
    expect(everything).not.toContain('"cost"');
    expect(everything).not.toContain('"margin"');
    // No figure of Meta's cost under another name either: every number shown is a price, a count or a date.
    const shown = new Set(bodies.flatMap(numbersIn));
    for (const cost of costFigures()) expect(shown.has(cost), `Meta's cost ${cost} µ shown`).toBe(false);
  });

  it('shows BSP_CN Meta’s cost, the client’s price and the margin between them', async () => {
    // Act
    const send = await call('GET', `/v1/sends/${sendId}`, { token: await tokens.bsp() });
    const recipients = await call('GET', `/v1/sends/${sendId}/recipients?size=50`, { token: await tokens.bsp() });
    // Assess
    const { cost, price, margin } = send.body;
    expect(cost.amount).toBeGreaterThan(0);
    expect(micros(margin)).toBe(micros(price.amount) - micros(cost.amount));
    expect(margin).toBeGreaterThan(0);
    for (const row of recipients.body.data as { cost: number; price: number }[]) expect(row.price).toBeGreaterThan(row.cost);
  });

  it('gives a dry run’s estimate in the client’s price, with the cost for BSP_CN only', async () => {
    // Act
    const agent = await client.send('order_update', [...MEXICO, ...BRAZIL], { query: '?dry_run=true' });
    const bsp = await call('POST', `/v1/template/messages/${client.did}?dry_run=true`, {
      token: await tokens.bsp(),
      body: {
        did: client.did,
        client_id: client.clientId,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'order_update', language: 'en_US' },
        recipients: MEXICO.map((to) => ({ to, params: { body: ['x'] } })),
      },
    });
    // Assess
    expect(agent.body.estimate.by_market.Mexico).toEqual({ messages: 10, amount: 10 * FIXED_MEXICO });
    expect(micros(agent.body.estimate.by_market.Brazil.amount)).toBe(micros(10 * brazilPrice()));
    expect(agent.body.estimate.cost).toBeUndefined();
    expect(bsp.body.estimate.cost.amount).toBeGreaterThan(0);
  });
});
