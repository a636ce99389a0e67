import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { type PriceList, type PricedMessage, priceOf, whyNoPrice } from '#lib/domain/money/pricing/price-list.ts';
import { priceTableOf } from '#lib/domain/money/pricing/price-table.ts';
import { PRICING_CATEGORIES } from '#lib/domain/money/pricing/rate-card.ts';
import { costCurrenciesFrom } from '#lib/domain/money/price-list-currency.ts';

/** Price lists in another currency than Meta's cost (decisions §31, issue 53 item 5): converted at the list's rate. */
const list = (extra: Partial<PriceList> = {}): PriceList => ({
  client_id: 670,
  effective_from: '2026-12-01',
  currency: 'MXN',
  markup_percent: 20,
  exchange_rates: { USD: 17.25 },
  created_at: '2026-11-01T00:00:00.000Z',
  ...extra,
});

/** A delivered billable Mexican marketing message of 2026-12-10 that cost Meta 0.0305 USD. */
const message = (extra: Partial<PricedMessage> = {}): PricedMessage => ({
  day: '2026-12-10',
  market: 'Mexico',
  category: 'marketing',
  costMicros: 30_500,
  costCurrency: 'USD',
  billable: true,
  ...extra,
});

describe('a message’s price from a cost in another currency (decisions §31)', () => {
  it('is the cost times the list’s rate for its currency, then the markup, in the list’s currency', () => {
    // Prepare: 30,500 µUSD × 17.25 = 526,125 µMXN; + 20 % = 631,350 µMXN
    const lists = [list()];
    // Act
    const price = priceOf(lists, message());
    // Assess
    expect(price).toEqual({ micros: 631_350, currency: 'MXN', list: '2026-12-01' });
    expect(whyNoPrice(lists, message())).toBeUndefined();
  });

  it('is rounded to the micro-unit once, at the end, not after the conversion', () => {
    // Prepare: 3 µUSD × 0.5 = 1.5 µ (rounded alone: 2, then + 50 % = 3); 1.5 × 1.5 = 2.25 → 2
    const lists = [list({ markup_percent: 50, exchange_rates: { USD: 0.5 } })];
    // Act
    const price = priceOf(lists, message({ costMicros: 3 }));
    // Assess
    expect(price?.micros).toBe(2);
  });

  it('is the fixed price where the list has one, whatever the cost’s currency; a message not billable is 0', () => {
    // Prepare
    const lists = [list({ exchange_rates: undefined, prices: { Mexico: { marketing: 0.9 } } })];
    // Act / Assess
    expect(priceOf(lists, message())?.micros).toBe(900_000);
    expect(priceOf(lists, message({ billable: false, market: 'Brazil' }))?.micros).toBe(0);
  });

  it('has none where the list has no rate for the cost’s currency (lists set before rates): cannot_convert', () => {
    // Prepare: a rate for EUR only, a cost in USD
    const lists = [list({ exchange_rates: { EUR: 20.1 } })];
    // Act
    const price = priceOf(lists, message());
    // Assess
    expect(price).toBeUndefined();
    expect(whyNoPrice(lists, message())).toBe('cannot_convert');
  });

  it('of a markup-only list with a rate for every cost currency is always given (property)', () => {
    // Prepare: any list currency, markup, positive rate; any message of a USD or EUR cost, any day the list is in force
    const arbitrary = fc.record({
      currency: fc.constantFrom('MXN', 'BRL', 'INR', 'IDR', 'GBP'),
      markup: fc.double({ min: 0, max: 1000, noNaN: true }),
      usd: fc.double({ min: 1e-6, max: 999_999, noNaN: true }),
      eur: fc.double({ min: 1e-6, max: 999_999, noNaN: true }),
      costCurrency: fc.constantFrom('USD', 'EUR'),
      costMicros: fc.integer({ min: 0, max: 1_000_000 }),
      category: fc.constantFrom(...PRICING_CATEGORIES),
      market: fc.constantFrom('Mexico', 'Brazil', 'India', 'Other'),
      day: fc.constantFrom('2026-12-01', '2027-03-31', '2030-01-01'),
      billable: fc.boolean(),
    });
    // Act / Assess
    fc.assert(
      fc.property(arbitrary, (a) => {
        const lists = [list({ currency: a.currency, markup_percent: a.markup, exchange_rates: { USD: a.usd, EUR: a.eur } })];
        const price = priceOf(lists, message({ ...a }));
        expect(price?.currency).toBe(a.currency);
        expect(Number.isSafeInteger(price?.micros)).toBe(true);
        expect(whyNoPrice(lists, message({ ...a }))).toBeUndefined();
      }),
    );
  });

  it('is what an agent’s price table shows, beside the list’s rates', () => {
    // Prepare: no MXN card: the table is of the USD card in force, converted at the list's rate
    const usd = rateCards.priceMicros('Brazil', 'marketing', '2026-12-01');
    // Act
    const table = priceTableOf(list(), rateCards, '2026-12-01');
    // Assess
    expect(table.prices.Brazil?.marketing).toBe(Math.round((usd * 17.25 * 120) / 100) / 1e6);
    expect(table.exchange_rates).toEqual({ USD: 17.25 });
    expect(table.unpriced_markets).toBeUndefined();
    expect(table).not.toHaveProperty('markup_percent');
  });
});

describe('the currencies Meta’s cost of a WABA is in from a day on (decisions §26, §31)', () => {
  it('is the WABA’s own where a card in it exists, and the base currency’s from the first date without one', () => {
    // Prepare: a EUR card exists for 2026-07-01 only
    // Act
    const eurFromJuly = costCurrenciesFrom(rateCards, '2026-07-15', 'EUR');
    const eurFromNovember = costCurrenciesFrom(rateCards, '2026-11-25', 'EUR');
    const usd = costCurrenciesFrom(rateCards, '2026-07-15', 'USD');
    const brl = costCurrenciesFrom(rateCards, '2026-07-15', 'BRL');
    // Assess
    expect(eurFromJuly).toEqual([
      { currency: 'EUR', from: '2026-07-01' },
      { currency: 'USD', from: '2026-10-01' },
    ]);
    expect(eurFromNovember).toEqual([{ currency: 'USD', from: '2026-10-01' }]);
    expect(usd).toEqual([{ currency: 'USD', from: '2026-07-01' }]);
    // BRL's cards of July and October give Brazil's row only (partial): the other markets are priced in USD
    expect(brl).toEqual([
      { currency: 'BRL', from: '2026-07-01' },
      { currency: 'USD', from: '2026-07-01' },
    ]);
  });
});
