import { describe, expect, it } from 'vitest';
import { mixedCurrencies } from '../support/one-currency.ts';

/**
 * The check test/http/one-currency.test.ts runs on every money answer (decisions §31: no sum or difference mixes
 * currencies), on hand-made bodies: each body that mixes is named by its path, and each that does not passes.
 */
describe('mixedCurrencies: a figure of two currencies in a money answer', () => {
  it('names a margin between a price and a cost of different currencies, on a usage row, a send and a line', () => {
    // Prepare
    const usage = { data: [{ currency: 'USD', amount: 0.1, price: 0.12, price_currency: 'EUR', margin: 0.02 }] };
    const send = { cost: { currency: 'USD', amount: 0.1 }, price: { currency: 'EUR', amount: 0.12 }, margin: 0.02 };
    const statement = { statements: [{ currency: 'EUR', lines: [{ amount: 0.12, cost: 0.1, cost_currency: 'USD', margin: 0.02 }] }] };
    // Act
    const found = [usage, send, statement].map((body) => mixedCurrencies(body));
    // Assess
    expect(found).toEqual([
      ['$.data[0]: a margin of a price in EUR and a cost in USD'],
      ['$: a margin of a price in EUR and a cost in USD'],
      ['$.statements[0].lines[0]: a margin of a price in EUR and a cost in USD'],
    ]);
  });

  it('names a total whose lines are in another currency, and a row under a currency not its own', () => {
    // Prepare
    const statement = {
      currency: 'EUR',
      lines: [
        { amount: 1, cost: 0.9, cost_currency: 'USD' },
        { amount: 1, cost: 0.8 },
      ],
      totals: { amount: 2, cost: 1.7, cost_currency: 'USD' },
    };
    const usage = {
      currency: 'USD',
      data: [
        { currency: 'USD', amount: 1 },
        { currency: 'EUR', amount: 2 },
      ],
    };
    // Act
    const found = [statement, usage].map((body) => mixedCurrencies(body));
    // Assess
    expect(found).toEqual([['$.lines[1]: a cost in EUR summed into a total in USD'], ['$.data[1]: a row in EUR under USD']]);
  });

  it('names a budget whose figures are not in the budget’s currency', () => {
    // Prepare
    const budget = { monthly_amount: 10, currency: 'EUR', spent: 1, reserved: 0, remaining: 9 };
    // Act
    const inDollars = mixedCurrencies(budget, { budgetCurrency: 'USD' });
    const inEuro = mixedCurrencies(budget, { budgetCurrency: 'EUR' });
    // Assess
    expect(inDollars).toEqual(["$: a budget's figures in EUR, the budget in USD"]);
    expect(inEuro).toEqual([]);
  });

  it('passes figures each of one currency: a margin within one, a price in another without one, Meta’s own', () => {
    // Prepare
    const usage = {
      currency: 'USD',
      data: [
        { currency: 'USD', amount: 0.1, price: 0.12, margin: 0.02, meta_amount: 0.1 },
        { currency: 'USD', amount: 0.1, price: 0.11, price_currency: 'EUR', meta_amount: 1.7, meta_currency: 'INR' },
      ],
    };
    const send = {
      cost: { currency: 'USD', amount: 0.1, by_category: { marketing: { messages: 2, amount: 0.1 } } },
      price: { currency: 'EUR', amount: 0.11 },
    };
    const statement = {
      statements: [
        {
          currency: 'EUR',
          lines: [{ amount: 1, cost: 0.9, cost_currency: 'USD' }],
          totals: { amount: 1, cost: 0.9, cost_currency: 'USD' },
        },
      ],
    };
    // Act
    const found = [usage, send, statement].flatMap((body) => mixedCurrencies(body));
    // Assess
    expect(found).toEqual([]);
  });
});
