import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { call, expectErrorShape, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * A price list in the WABA's currency on the running local stack (decisions §31, issue 53 item 5): client 670's
 * WABA is billed in USD (the emulator's unless set); a markup-only list in MXN must give the USD rate it converts
 * Meta's cost at, and then prices every message: cost × rate, then the markup, to the micro-unit.
 */
const client = new OwnClient(670);
const PATH = `/v1/clients/${client.clientId}/price-list`;
const MARKUP = 20;
/** Pesos per dollar: not a whole number, so a price it did not make cannot equal one it did. */
const USD_RATE = 17.25;
const MEXICO = '525512345670';
const today = () => new Date().toISOString().slice(0, 10);
const put = async (body: unknown) => call('PUT', PATH, { token: await tokens.bsp(), body });

beforeAll(() => client.seed('Pesos', [demoTemplateAs('order_update', { id: 't670', category: 'MARKETING' })]), 60_000);

describe('a price list in another currency than its client’s WABA (decisions §31)', () => {
  it('is 400 for a markup-only list in MXN on a USD WABA without a USD rate, naming USD and the WABA', async () => {
    // Prepare / Act
    const answer = await put({ effective_from: today(), currency: 'MXN', markup_percent: MARKUP });
    // Assess
    const error = expectErrorShape(answer, 400);
    expect(error.message).toContain(`currency MXN is not the billing currency of WABA ${client.waba} (USD)`);
    expect(error.details).toEqual([{ path: 'exchange_rates.USD', message: expect.stringContaining('give exchange_rates.USD') }]);
    const lists = await call('GET', PATH, { token: await tokens.bsp() });
    expect(lists.body.in_force).toBeNull();
  });

  it('is 400 naming the field for a rate that is not a positive number', async () => {
    // Prepare / Act
    const answer = await put({ effective_from: today(), currency: 'MXN', markup_percent: MARKUP, exchange_rates: { USD: 0 } });
    // Assess
    const error = expectErrorShape(answer, 400);
    expect(error.details?.map((d) => d.path)).toContain('exchange_rates.USD');
  });

  it('is 200 with the USD rate, shown to the agent, and a dry run is priced in MXN: cost × rate × (1 + markup)', async () => {
    // Prepare
    const day = today();
    const list = await put({ effective_from: day, currency: 'MXN', markup_percent: MARKUP, exchange_rates: { USD: USD_RATE } });
    // Act
    const shown = await call('GET', PATH, { token: await client.token() });
    const dry = await client.send('order_update', [MEXICO], { query: '?dry_run=true' });
    // Assess
    expect(list.status).toBe(200);
    expect(shown.body.in_force).toMatchObject({ currency: 'MXN', exchange_rates: { USD: USD_RATE } });
    expect(shown.body.in_force).not.toHaveProperty('markup_percent');
    expect(dry.status).toBe(200);
    const cost = rateCards.priceMicros('Mexico', 'marketing', day);
    const price = Math.round((cost * USD_RATE * (100 + MARKUP)) / 100);
    expect(dry.body.estimate).toMatchObject({
      currency: 'MXN',
      amount: price / 1e6,
      by_market: { Mexico: { messages: 1, amount: price / 1e6 } },
      price_list: day,
    });
    expect(dry.body.estimate.unpriced_markets).toBeUndefined();
    expect(dry.body.estimate).not.toHaveProperty('cost');
  });
});
