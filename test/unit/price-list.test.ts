import { describe, expect, it } from 'vitest';
import { listInForce, listsOn, type PriceList, type PricedMessage, priceOf, whyNoPrice } from '#lib/domain/money/pricing/price-list.ts';

/** A client's price lists (decisions §27): which list is in force on a day, and what a message is priced at. */
const list = (effective_from: string, extra: Partial<PriceList> = {}): PriceList => ({
  client_id: 560,
  effective_from,
  currency: 'USD',
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

describe('the price list in force (decisions §27)', () => {
  it('starts on its effective_from; an older one applies the day before; none before the first', () => {
    // Prepare: lists in no order
    const lists = [list('2026-12-01'), list('2026-11-01'), list('2027-01-01')];
    // Act / Assess
    expect(listInForce(lists, '2026-11-30')?.effective_from).toBe('2026-11-01');
    expect(listInForce(lists, '2026-12-01')?.effective_from).toBe('2026-12-01');
    expect(listInForce(lists, '2026-12-31')?.effective_from).toBe('2026-12-01');
    expect(listInForce(lists, '2027-06-01')?.effective_from).toBe('2027-01-01');
    expect(listInForce(lists, '2026-10-31')).toBeUndefined();
    expect(listInForce([], '2026-12-01')).toBeUndefined();
  });

  it('sorts a client’s lists into the one in force, those to come (soonest first) and past ones (newest first)', () => {
    // Prepare
    const lists = [list('2027-02-01'), list('2026-10-01'), list('2026-12-01'), list('2027-01-01'), list('2026-11-01')];
    // Act
    const on = listsOn(lists, '2026-12-15');
    const before = listsOn(lists, '2026-09-30');
    // Assess
    expect(on.in_force?.effective_from).toBe('2026-12-01');
    expect(on.upcoming.map((l) => l.effective_from)).toEqual(['2027-01-01', '2027-02-01']);
    expect(on.past.map((l) => l.effective_from)).toEqual(['2026-11-01', '2026-10-01']);
    expect(before).toEqual({ in_force: null, upcoming: expect.any(Array), past: [] });
    expect(before.upcoming).toHaveLength(5);
  });
});

describe('a message’s price (decisions §27)', () => {
  it('is the fixed price of its market and category where the list has one: it wins over the markup', () => {
    // Prepare
    const lists = [list('2026-12-01', { markup_percent: 20, prices: { Mexico: { marketing: 0.05 } } })];
    // Act / Assess
    expect(priceOf(lists, message())).toEqual({ micros: 50_000, currency: 'USD', list: '2026-12-01' });
  });

  it('is Meta’s cost plus the markup elsewhere, and the cost itself where the list has no markup', () => {
    // Prepare
    const markup = [list('2026-12-01', { markup_percent: 20, prices: { Mexico: { marketing: 0.05 } } })];
    const fixedOnly = [list('2026-12-01', { prices: { Mexico: { marketing: 0.05 } } })];
    // Act / Assess
    expect(priceOf(markup, message({ category: 'utility', costMicros: 8_500 }))).toEqual({
      micros: 10_200,
      currency: 'USD',
      list: '2026-12-01',
    });
    expect(priceOf(markup, message({ market: 'Brazil', costMicros: 62_500 }))?.micros).toBe(75_000);
    expect(priceOf(fixedOnly, message({ market: 'Brazil', costMicros: 62_500 }))?.micros).toBe(62_500);
  });

  it('is undefined where no list is in force that day: the client pays Meta’s cost', () => {
    // Prepare
    const lists = [list('2026-12-11', { markup_percent: 20 })];
    // Act / Assess
    expect(priceOf(lists, message())).toBeUndefined();
    expect(priceOf([], message())).toBeUndefined();
    expect(whyNoPrice(lists, message())).toBe('no_list');
    expect(priceOf(lists, message({ day: '2026-12-11' }))?.micros).toBe(36_600);
  });

  it('applies the list of the message’s day: an older list before a newer one’s effective_from', () => {
    // Prepare
    const lists = [list('2026-12-01', { markup_percent: 100 }), list('2026-11-01', { markup_percent: 10 })];
    // Act / Assess
    expect(priceOf(lists, message({ day: '2026-11-30', costMicros: 10_000 }))).toEqual({
      micros: 11_000,
      currency: 'USD',
      list: '2026-11-01',
    });
    expect(priceOf(lists, message({ day: '2026-12-01', costMicros: 10_000 }))).toEqual({
      micros: 20_000,
      currency: 'USD',
      list: '2026-12-01',
    });
  });

  it('is 0 for a message not charged (not billable), even with a fixed price', () => {
    // Prepare
    const lists = [list('2026-12-01', { markup_percent: 20, prices: { Mexico: { marketing: 0.05 } } })];
    // Act / Assess
    expect(priceOf(lists, message({ billable: false, costMicros: 0 }))).toEqual({ micros: 0, currency: 'USD', list: '2026-12-01' });
  });

  it('is undefined for a cost in another currency without a fixed price (it cannot be converted)', () => {
    // Prepare: a list in MXN; the WABA is billed in USD
    const lists = [list('2026-12-01', { currency: 'MXN', markup_percent: 20, prices: { Mexico: { marketing: 0.9 } } })];
    // Act / Assess
    expect(priceOf(lists, message({ category: 'utility' }))).toBeUndefined();
    expect(whyNoPrice(lists, message({ category: 'utility' }))).toBe('cannot_convert');
    expect(priceOf(lists, message())).toEqual({ micros: 900_000, currency: 'MXN', list: '2026-12-01' });
    expect(whyNoPrice(lists, message())).toBeUndefined();
  });

  it('is rounded to the micro-unit, half up', () => {
    // Prepare
    const lists = [list('2026-12-01', { markup_percent: 12.5, prices: { India: { marketing: 0.0107505 } } })];
    // Act / Assess
    expect(priceOf(lists, message({ costMicros: 7 }))?.micros).toBe(8); // 7.875
    expect(priceOf(lists, message({ costMicros: 4 }))?.micros).toBe(5); // 4.5
    expect(priceOf(lists, message({ costMicros: 3 }))?.micros).toBe(3); // 3.375
    expect(priceOf(lists, message({ costMicros: 13_333 }))?.micros).toBe(15_000); // 14,999.625
    expect(priceOf(lists, message({ market: 'India' }))?.micros).toBe(10_751); // 0.0107505 → 10,750.5
    expect(Number.isInteger(priceOf([list('2026-12-01', { markup_percent: 33.3333 })], message({ costMicros: 8_501 }))?.micros)).toBe(true);
  });
});
