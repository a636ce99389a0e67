import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { directoryEntities } from '#lib/adapters/directory-file.ts';
import { Conflict, Forbidden, InvalidRequest, NotFound } from '#lib/domain/shared/errors.ts';
import { getPriceLists, PRICE_LIST_IN_FORCE, type PriceListInput, putPriceList } from '#lib/domain/money/price-lists.ts';
import { PRICE_LIST_MARKETS, PriceListBody, PriceListsResponse } from '#lib/schemas/price-list.ts';
import { MemoryDirectoryStore } from '../../support/memory/shared/directory-store.ts';
import { MemoryPriceListStore } from '../../support/memory/money/price-list-store.ts';
import { callerOf, DEMO_FIXTURE } from '../../support/memory/world.ts';

/** Price lists per client (decisions §27) on in-memory stores: who sets and reads them, what a put may change. */
const acme = callerOf(7);
const beta = callerOf(8);
const bsp = { ...callerOf(7), isBsp: true };
const TODAY = '2026-11-25';

function priceWorld(now = `${TODAY}T10:00:00.000Z`) {
  const priceLists = new MemoryPriceListStore();
  const deps = { priceLists, directory: new MemoryDirectoryStore(directoryEntities(DEMO_FIXTURE)), now: () => now };
  return { priceLists, deps, at: (later: string) => ({ ...deps, now: () => later }) };
}

const body = (extra: Partial<PriceListInput> = {}): PriceListInput => ({
  effective_from: '2026-12-01',
  currency: 'USD',
  markup_percent: 20,
  ...extra,
});

describe('a client’s price lists (decisions §27)', () => {
  it('are BSP_CN’s to set: an agent gets 403, an unknown client 404, and nothing is kept', async () => {
    // Prepare
    const { deps, priceLists } = priceWorld();
    // Act
    const byAgent = await putPriceList(deps, acme, 7, body()).catch((e) => e);
    const unknown = await putPriceList(deps, bsp, 999_999, body()).catch((e) => e);
    // Assess
    expect(byAgent).toBeInstanceOf(Forbidden);
    expect(unknown).toBeInstanceOf(NotFound);
    expect(priceLists.items.size).toBe(0);
  });

  it('answer the list in force, those to come and the past ones, to BSP_CN and the client’s own agent', async () => {
    // Prepare: lists put over three months, read on 2027-01-15
    const { at } = priceWorld();
    await putPriceList(at('2026-10-20T00:00:00.000Z'), bsp, 7, body({ effective_from: '2026-11-01', markup_percent: 10 }));
    await putPriceList(at('2026-11-20T00:00:00.000Z'), bsp, 7, body({ effective_from: '2026-12-01' }));
    await putPriceList(
      at('2026-12-20T00:00:00.000Z'),
      bsp,
      7,
      body({ effective_from: '2027-01-01', prices: { Mexico: { marketing: 0.05 } } }),
    );
    await putPriceList(at('2026-12-21T00:00:00.000Z'), bsp, 7, body({ effective_from: '2027-02-01', currency: 'EUR' }));
    const reading = at('2027-01-15T00:00:00.000Z');
    // Act
    const own = await getPriceLists(reading, acme, 7);
    const byBsp = await getPriceLists(reading, bsp, 7);
    const other = await getPriceLists(reading, beta, 7).catch((e) => e);
    const none = await getPriceLists(reading, beta, 8);
    const unknown = await getPriceLists(reading, bsp, 999_999).catch((e) => e);
    // Assess
    expect(v.is(PriceListsResponse, own)).toBe(true);
    expect(byBsp.in_force).toEqual({
      client_id: 7,
      effective_from: '2027-01-01',
      currency: 'USD',
      markup_percent: 20,
      prices: { Mexico: { marketing: 0.05 } },
      created_at: '2026-12-20T00:00:00.000Z',
    });
    expect(own.upcoming.map((l) => [l.effective_from, l.currency])).toEqual([['2027-02-01', 'EUR']]);
    expect(own.past.map((l) => l.effective_from)).toEqual(['2026-12-01', '2026-11-01']);
    // The agent sees the prices the list gives, never its markup (decisions §32, agent-money-visibility.test.ts).
    expect(own.in_force).toMatchObject({ effective_from: '2027-01-01', currency: 'USD', prices: { Mexico: { marketing: 0.05 } } });
    expect(own.in_force?.markup_percent).toBeUndefined();
    expect(other).toBeInstanceOf(Forbidden);
    expect(none).toEqual({ client_id: 8, in_force: null, upcoming: [], past: [] });
    expect(unknown).toBeInstanceOf(NotFound);
  });

  it('start today or later: a date before today (UTC) is 400, today is in force at once', async () => {
    // Prepare: 00:30 UTC on the 25th is still the 24th west of UTC; the day is UTC's
    const { deps } = priceWorld(`${TODAY}T00:30:00.000Z`);
    // Act
    const yesterday = await putPriceList(deps, bsp, 7, body({ effective_from: '2026-11-24' })).catch((e) => e);
    const today = await putPriceList(deps, bsp, 7, body({ effective_from: TODAY }));
    // Assess
    expect(yesterday).toBeInstanceOf(InvalidRequest);
    expect(yesterday.details).toEqual([{ path: 'effective_from', message: 'must not be before 2026-11-25' }]);
    expect(today.in_force?.effective_from).toBe(TODAY);
  });

  it('replace a list of the same date until it is in force, then never: 409 price_list_in_force', async () => {
    // Prepare
    const { at } = priceWorld();
    await putPriceList(at('2026-11-20T00:00:00.000Z'), bsp, 7, body({ markup_percent: 10 }));
    // Act
    const replaced = await putPriceList(at('2026-11-30T23:59:59.999Z'), bsp, 7, body({ markup_percent: 15 }));
    const inForce = await putPriceList(at('2026-12-01T00:00:00.000Z'), bsp, 7, body({ markup_percent: 50 })).catch((e) => e);
    const shown = await getPriceLists(at('2026-12-01T00:00:00.000Z'), bsp, 7);
    // Assess
    expect(replaced.upcoming.map((l) => l.markup_percent)).toEqual([15]);
    expect(inForce).toBeInstanceOf(Conflict);
    expect(inForce.reason).toBe(PRICE_LIST_IN_FORCE);
    expect(shown.in_force?.markup_percent).toBe(15);
  });
});

describe('the price list body (lib/schemas/price-list.ts)', () => {
  const problems = (input: unknown) => {
    const result = v.safeParse(PriceListBody, input, { abortPipeEarly: true }); // as validate-request.ts parses
    return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? '(body)');
  };

  it('takes a markup, fixed prices of any market of any rate card, or both', () => {
    // Prepare / Act / Assess
    expect(PRICE_LIST_MARKETS).toEqual(expect.arrayContaining(['Mexico', 'India', 'Rest of Africa', 'Other', 'Hong Kong']));
    expect(problems({ effective_from: '2028-02-29', currency: 'MXN', markup_percent: 0 })).toEqual([]);
    expect(problems({ effective_from: '2027-01-01', currency: 'USD', markup_percent: 1000 })).toEqual([]);
    expect(
      problems({
        effective_from: '2027-01-01',
        currency: 'USD',
        prices: { Mexico: { marketing: 0.05, authentication_international: 0 }, 'Rest of Africa': { utility: 999.99 } },
      }),
    ).toEqual([]);
  });

  it('refuses each bad field', () => {
    // Prepare
    const ok = { effective_from: '2027-01-01', currency: 'USD', markup_percent: 20 };
    // Act / Assess
    expect(problems({ ...ok, effective_from: '2027-02-30' })).toEqual(['effective_from']);
    expect(problems({ ...ok, effective_from: '2027-1-01' })).toEqual(['effective_from']);
    expect(problems({ ...ok, effective_from: 20270101 })).toEqual(['effective_from']);
    expect(problems({ ...ok, currency: 'usd' })).toEqual(['currency']);
    expect(problems({ ...ok, currency: 'USDT' })).toEqual(['currency']);
    expect(problems({ ...ok, markup_percent: -1 })).toEqual(['markup_percent']);
    expect(problems({ ...ok, markup_percent: 1000.5 })).toEqual(['markup_percent']);
    expect(problems({ ...ok, markup_percent: '20' })).toEqual(['markup_percent']);
    expect(problems({ ...ok, prices: { Atlantis: { marketing: 1 } } })).toContain('prices.Atlantis');
    expect(problems({ ...ok, prices: { Mexico: { service: 1 } } })).toEqual(['prices.Mexico.service']);
    expect(problems({ ...ok, prices: { Mexico: { marketing: -0.01 } } })).toEqual(['prices.Mexico.marketing']);
    expect(problems({ ...ok, prices: { Mexico: { marketing: 1000 } } })).toEqual(['prices.Mexico.marketing']);
    expect(problems({ ...ok, prices: { Mexico: {} } })).toEqual(['prices.Mexico']);
    expect(problems({ ...ok, prices: {} })).toEqual(['prices']);
    expect(problems({ effective_from: '2027-01-01', currency: 'USD' })).toEqual(['(body)']);
  });
});
