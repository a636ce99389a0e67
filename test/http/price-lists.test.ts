import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, tokens } from '../support/api.ts';
import { OwnClient } from '../support/own-client.ts';

/**
 * Clients' price lists on the running local stack (decisions §27): BSP_CN adds them, the client's own agent
 * reads them; a list in force is never replaced. Client 560 is this file's own. Every 200 body is checked against
 * the route's response schema by `call` (test/support/api.ts).
 */
const client = new OwnClient(560);
const PATH = `/v1/clients/${client.clientId}/price-list`;
const dayFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const TODAY = dayFrom(0);
const NEXT_MONTH = dayFrom(30);
const put = async (body: unknown, as = tokens.bsp, path = PATH) => call('PUT', path, { token: await as(), body });
const ok = { effective_from: NEXT_MONTH, currency: 'USD', markup_percent: 20 };

beforeAll(() => client.seed('Price lists', []), 60_000);

describe('a client’s price lists (decisions §27)', () => {
  it('are BSP_CN’s to set and the client’s to read: 403 for an agent’s PUT and another client’s agent, 404 for an unknown client', async () => {
    // Prepare / Act
    const agentPut = await put(ok, client.token);
    const otherAgentGet = await call('GET', PATH, { token: await tokens.acme() });
    const unknownPut = await put(ok, tokens.bsp, '/v1/clients/999999999/price-list');
    const unknownGet = await call('GET', '/v1/clients/999999999/price-list', { token: await tokens.bsp() });
    // Assess
    expectErrorShape(agentPut, 403);
    expectErrorShape(otherAgentGet, 403);
    expectErrorShape(unknownPut, 404);
    expectErrorShape(unknownGet, 404);
  });

  it.each([
    ['effective_from not a date', { ...ok, effective_from: '2027-1-01' }, 'effective_from'],
    ['effective_from not a day of the calendar', { ...ok, effective_from: '2027-02-30' }, 'effective_from'],
    ['effective_from before today (UTC)', { ...ok, effective_from: dayFrom(-1) }, 'effective_from'],
    ['effective_from missing', { currency: 'USD', markup_percent: 20 }, 'effective_from'],
    ['currency in lower case', { ...ok, currency: 'usd' }, 'currency'],
    ['currency of four letters', { ...ok, currency: 'USDT' }, 'currency'],
    ['currency missing', { effective_from: NEXT_MONTH, markup_percent: 20 }, 'currency'],
    ['markup_percent negative', { ...ok, markup_percent: -1 }, 'markup_percent'],
    ['markup_percent over 1000', { ...ok, markup_percent: 1000.01 }, 'markup_percent'],
    ['markup_percent a string', { ...ok, markup_percent: '20' }, 'markup_percent'],
    ['prices of a market no rate card names', { ...ok, prices: { Atlantis: { marketing: 0.05 } } }, 'prices.Atlantis'],
    ['prices of an unknown category', { ...ok, prices: { Mexico: { service: 0.05 } } }, 'prices.Mexico.service'],
    ['a negative price', { ...ok, prices: { Mexico: { marketing: -0.01 } } }, 'prices.Mexico.marketing'],
    ['a price of 1000', { ...ok, prices: { Mexico: { marketing: 1000 } } }, 'prices.Mexico.marketing'],
    ['a market without prices', { ...ok, prices: { Mexico: {} } }, 'prices.Mexico'],
    ['neither markup_percent nor prices', { effective_from: NEXT_MONTH, currency: 'USD' }, ''],
  ])('refuses %s with 400', async (_, body, path) => {
    // Prepare / Act
    const answer = await put(body);
    // Assess
    const error = expectErrorShape(answer, 400);
    expect(error.details?.map((d) => d.path)).toContain(path);
  });

  it('refuses a missing body with 400', async () => {
    // Prepare / Act
    const answer = await call('PUT', PATH, { token: await tokens.bsp() });
    // Assess
    expectErrorShape(answer, 400);
  });

  it('keeps a list to come, replaces it until it is in force, and answers it to the client’s agent as prices, never its markup', async () => {
    // Prepare
    const first = await put({ ...ok, prices: { Mexico: { marketing: 0.05 } } });
    // Act
    const replaced = await put({ ...ok, markup_percent: 25, prices: { Mexico: { marketing: 0.06 }, 'Rest of Africa': { utility: 0.01 } } });
    const asBsp = await call('GET', PATH, { token: await tokens.bsp() });
    const shown = await call('GET', PATH, { token: await client.token() });
    // Assess: BSP_CN sees the list as set; the agent its prices (the markup applied to the card), no markup (§32)
    expect(first.status).toBe(200);
    expect(replaced.status).toBe(200);
    expect(asBsp.body).toEqual(replaced.body);
    expect(asBsp.body).toEqual({
      client_id: client.clientId,
      in_force: null,
      upcoming: [
        {
          client_id: client.clientId,
          effective_from: NEXT_MONTH,
          currency: 'USD',
          markup_percent: 25,
          prices: { Mexico: { marketing: 0.06 }, 'Rest of Africa': { utility: 0.01 } },
          created_at: expect.any(String),
        },
      ],
      past: [],
    });
    expect(shown.status).toBe(200);
    const [upcoming] = shown.body.upcoming;
    expect(upcoming).not.toHaveProperty('markup_percent');
    expect(upcoming.prices).toMatchObject({ Mexico: { marketing: 0.06 }, 'Rest of Africa': { utility: 0.01 } });
    const argentina = rateCards.priceMicros('Argentina', 'utility', NEXT_MONTH) / 1e6;
    expect(upcoming.prices.Argentina.utility).toBeCloseTo(argentina * 1.25, 9);
  });

  it('puts a list in force from today, and refuses to replace it: 409 price_list_in_force', async () => {
    // Prepare
    const today = await put({
      effective_from: TODAY,
      currency: 'MXN',
      prices: { Mexico: { marketing: 0.9, utility: 0.2 } },
      exchange_rates: { USD: 17.25 },
    });
    // Act
    const again = await put({ effective_from: TODAY, currency: 'MXN', markup_percent: 50 });
    const shown = await call('GET', PATH, { token: await tokens.bsp() });
    // Assess
    expect(today.status).toBe(200);
    expectErrorShape(again, 409, 'price_list_in_force');
    expect(shown.body.in_force).toMatchObject({
      effective_from: TODAY,
      currency: 'MXN',
      prices: { Mexico: { marketing: 0.9, utility: 0.2 } },
    });
    expect(shown.body.in_force.markup_percent).toBeUndefined();
    expect(shown.body.upcoming.map((l: { effective_from: string }) => l.effective_from)).toEqual([NEXT_MONTH]);
    expect(shown.body.past).toEqual([]);
  });
});
