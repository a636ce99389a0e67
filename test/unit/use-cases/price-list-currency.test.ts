import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { directoryEntities } from '#lib/adapters/directory-file.ts';
import type { BillingCurrencies } from '#lib/domain/money/ports.ts';
import { getPriceLists, type PriceListInput, putPriceList } from '#lib/domain/money/price-lists.ts';
import type { PriceTable } from '#lib/domain/money/pricing/price-table.ts';
import { InvalidRequest, UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { PriceListBody } from '#lib/schemas/price-list.ts';
import { MemoryPriceListStore } from '../../support/memory/money/price-list-store.ts';
import { MemoryDirectoryStore } from '../../support/memory/shared/directory-store.ts';
import { callerOf, DEMO_FIXTURE } from '../../support/memory/world.ts';

/**
 * A price list in the WABA's currency (decisions §31, issue 53 item 5) on in-memory stores: a list with a markup
 * must convert Meta's cost of every WABA of its client, or give the rate; else 400 naming the currency and WABA.
 * Client 7 has WABAs 100200300 and 100200301; client 11 has none.
 */
const TODAY = '2026-11-25';
const bsp = { ...callerOf(7), isBsp: true };
const agent = callerOf(7);

/** The demo directory and a client without WABAs; each WABA billed in the currency given (none: Meta cannot say). */
function currencyWorld(billing: Record<string, string>) {
  const fixture = { ...DEMO_FIXTURE, clients: [...DEMO_FIXTURE.clients, { client_id: 11, client_name: 'Epsilon' }] };
  const currencies: BillingCurrencies = {
    currencyOf: async (waba) => billing[waba] ?? Promise.reject(new Error(`Graph did not answer for ${waba}`)),
  };
  const priceLists = new MemoryPriceListStore();
  const deps = {
    priceLists,
    directory: new MemoryDirectoryStore(directoryEntities(fixture)),
    currencies,
    now: () => `${TODAY}T10:00:00.000Z`,
  };
  return { deps, priceLists };
}

const USD_WABAS = { '100200300': 'USD', '100200301': 'USD' };
const mxn = (extra: Partial<PriceListInput> = {}): PriceListInput => ({
  effective_from: '2026-12-01',
  currency: 'MXN',
  markup_percent: 20,
  ...extra,
});

describe('a price list’s currency against its client’s WABAs (decisions §31)', () => {
  it('is 400 for a markup in MXN on USD WABAs without a USD rate, naming the currency and each WABA; nothing kept', async () => {
    // Prepare
    const { deps, priceLists } = currencyWorld(USD_WABAS);
    // Act
    const refused = await putPriceList(deps, bsp, 7, mxn()).catch((e) => e);
    // Assess
    expect(refused).toBeInstanceOf(InvalidRequest);
    expect(refused.message).toBe(
      'currency MXN is not the billing currency of WABA 100200300 (USD): give exchange_rates.USD (and 1 more: see details)',
    );
    expect(refused.details).toEqual([
      { path: 'exchange_rates.USD', message: 'currency MXN is not the billing currency of WABA 100200300 (USD): give exchange_rates.USD' },
      { path: 'exchange_rates.USD', message: 'currency MXN is not the billing currency of WABA 100200301 (USD): give exchange_rates.USD' },
    ]);
    expect(priceLists.items.size).toBe(0);
  });

  it('is 200 with the rate, which BSP_CN and the client’s agent both read back', async () => {
    // Prepare
    const { deps } = currencyWorld(USD_WABAS);
    // Act
    const put = await putPriceList(deps, bsp, 7, mxn({ exchange_rates: { USD: 17.25 } }));
    const own = await getPriceLists(deps, agent, 7);
    // Assess
    expect(put.upcoming).toEqual([expect.objectContaining({ currency: 'MXN', markup_percent: 20, exchange_rates: { USD: 17.25 } })]);
    expect(own.upcoming[0]).toMatchObject({ currency: 'MXN', exchange_rates: { USD: 17.25 } });
    expect(own.upcoming[0]).not.toHaveProperty('markup_percent');
    expect((own.upcoming[0] as PriceTable).unpriced_markets).toBeUndefined();
  });

  it('is 200 in the WABAs’ own currency, and for any currency of a client without WABAs', async () => {
    // Prepare
    const { deps } = currencyWorld(USD_WABAS);
    // Act
    const own = await putPriceList(deps, bsp, 7, mxn({ currency: 'USD' }));
    const none = await putPriceList(deps, { ...callerOf(11), isBsp: true }, 11, mxn({ currency: 'JPY' }));
    // Assess
    expect(own.upcoming.map((l) => l.currency)).toEqual(['USD']);
    expect(none.upcoming.map((l) => l.currency)).toEqual(['JPY']);
  });

  it('asks a EUR WABA’s list for a USD rate from the first card date without a EUR card', async () => {
    // Prepare: the EUR card is July 2026's alone; from 2026-10-01 Meta's cost is priced in USD
    const { deps } = currencyWorld({ '100200300': 'EUR', '100200301': 'USD' });
    // Act
    const refused = await putPriceList(deps, bsp, 7, mxn({ currency: 'EUR', exchange_rates: undefined })).catch((e) => e);
    const taken = await putPriceList(deps, bsp, 7, mxn({ currency: 'EUR', exchange_rates: { USD: 0.86 } }));
    // Assess
    expect(refused).toBeInstanceOf(InvalidRequest);
    expect(refused.details.map((d: { message: string }) => d.message)).toEqual([
      "WABA 100200300 is billed in EUR, which Meta's cards price in USD from 2026-10-01 (no EUR card): give exchange_rates.USD",
      'currency EUR is not the billing currency of WABA 100200301 (USD): give exchange_rates.USD',
    ]);
    expect(taken.upcoming[0]).toMatchObject({ currency: 'EUR', exchange_rates: { USD: 0.86 } });
  });

  it('is asked of a list of fixed prices alone too: the markets it does not name are priced from Meta’s cost', async () => {
    // Prepare
    const { deps } = currencyWorld(USD_WABAS);
    const fixedOnly = { markup_percent: undefined, prices: { Mexico: { marketing: 0.9 } } };
    // Act
    const refused = await putPriceList(deps, bsp, 7, mxn({ ...fixedOnly, exchange_rates: undefined })).catch((e) => e);
    const put = await putPriceList(deps, bsp, 7, mxn({ ...fixedOnly, exchange_rates: { USD: 17.25 } }));
    // Assess
    expect(refused).toBeInstanceOf(InvalidRequest);
    expect(put.upcoming.map((l) => l.currency)).toEqual(['MXN']);
  });

  it('cannot be checked when Meta cannot say a WABA’s currency: upstream unavailable, nothing kept', async () => {
    // Prepare: Graph answers for one WABA only
    const { deps, priceLists } = currencyWorld({ '100200300': 'USD' });
    // Act
    const failed = await putPriceList(deps, bsp, 7, mxn({ exchange_rates: { USD: 17.25 } })).catch((e) => e);
    // Assess
    expect(failed).toBeInstanceOf(UpstreamUnavailable);
    expect(failed.message).toContain('WABA 100200301');
    expect(priceLists.items.size).toBe(0);
  });
});

describe('exchange_rates in the price list body (lib/schemas/price-list.ts)', () => {
  const problems = (input: unknown) => {
    const result = v.safeParse(PriceListBody, input, { abortPipeEarly: true });
    return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? '(body)');
  };
  const body = { effective_from: '2027-01-01', currency: 'MXN', markup_percent: 20 };

  it('takes positive rates by ISO currency, and refuses anything else by its path', () => {
    // Prepare / Act / Assess
    expect(problems({ ...body, exchange_rates: { USD: 17.25, EUR: 20.1 } })).toEqual([]);
    expect(problems({ ...body, exchange_rates: { USD: 0 } })).toEqual(['exchange_rates.USD']);
    expect(problems({ ...body, exchange_rates: { USD: -1 } })).toEqual(['exchange_rates.USD']);
    expect(problems({ ...body, exchange_rates: { USD: '17' } })).toEqual(['exchange_rates.USD']);
    expect(problems({ ...body, exchange_rates: { USD: 1_000_000 } })).toEqual(['exchange_rates.USD']);
    expect(problems({ ...body, exchange_rates: { usd: 17 } })).toEqual(['exchange_rates.usd']);
    expect(problems({ ...body, exchange_rates: {} })).toEqual(['exchange_rates']);
    expect(problems({ ...body, exchange_rates: [17] })).toEqual(['exchange_rates.0']);
    expect(problems({ ...body, exchange_rates: { MXN: 1 } })).toEqual(['exchange_rates']);
  });
});
