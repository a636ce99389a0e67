import { describe, expect, it } from 'vitest';
import {
  billed,
  budgetShares,
  monthDays,
  money,
  moneyColumns,
  type UsageRow,
  usageChart,
  usageQuery,
} from '../../../console/src/pages/money-data.ts';

const row = (period: string, market: string, figures: Partial<UsageRow>): UsageRow => ({
  client_id: 7,
  from: period,
  to: period,
  period,
  market,
  currency: 'USD',
  messages: 1,
  billable: 1,
  ...figures,
});

describe('the money page’s figures (issue 45)', () => {
  it('asks for usage by day and the stacking group, for the page’s client', () => {
    expect(usageQuery(7, '2026-11-01', '2026-11-27', 'category')).toEqual({
      client_id: 7,
      from: '2026-11-01',
      to: '2026-11-27',
      group_by: 'day,category',
    });
  });

  it('stacks each day’s bars by market, each series with its total; the totals sum the rows the API gave', () => {
    // Prepare: three days, two markets, 0.1 + 0.2 kept exact to the micro-unit
    const data = [
      row('2026-11-02', 'Mexico', { amount: 0.1, messages: 2 }),
      row('2026-11-01', 'Mexico', { amount: 0.2, messages: 4 }),
      row('2026-11-01', 'Brazil', { amount: 0.0625, messages: 1 }),
      row('2026-11-03', 'Brazil', { amount: 0.0625, messages: 1 }),
    ];
    // Act
    const chart = usageChart({ data }, 'market');
    // Assess
    expect(chart.days).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(chart.series.map((s) => [s.label, s.values, s.total, s.messages])).toEqual([
      ['Mexico', [0.2, 0.1, 0], 0.3, 6],
      ['Brazil', [0.0625, 0, 0.0625], 0.125, 2],
    ]);
    expect(chart.totals).toEqual([{ currency: 'USD', total: 0.425, messages: 8 }]);
  });

  it('draws what the client is billed: its price where its list applied, Meta’s cost elsewhere; currencies apart', () => {
    // Prepare: BSP_CN's row carries both; an agent's with a price list the price alone; a EUR WABA's row
    const data = [
      row('2026-11-01', 'Mexico', { amount: 0.04, price: 0.05, margin: 0.01 }),
      row('2026-11-01', 'Brazil', { price: 0.075 }),
      row('2026-11-01', 'Germany', { amount: 0.11, currency: 'EUR' }),
    ];
    // Act
    const chart = usageChart({ data }, 'market');
    // Assess
    expect(billed(data[0])).toEqual({ value: 0.05, currency: 'USD' });
    expect(chart.series.map((s) => s.label)).toEqual(['Germany (EUR)', 'Brazil (USD)', 'Mexico (USD)']);
    expect(chart.totals).toEqual([
      { currency: 'EUR', total: 0.11, messages: 1 },
      { currency: 'USD', total: 0.125, messages: 2 },
    ]);
  });

  it('shows a money column only where the answer has its figure: no Meta cost column for a priced agent', () => {
    // Act, Assess
    expect(moneyColumns([{ price: 1 }, { price: 2 }]).map((c) => c.heading)).toEqual(['Price']);
    expect(moneyColumns([{ amount: 1, price: 2, margin: 1 }]).map((c) => c.heading)).toEqual(['Meta cost', 'Price', 'Margin']);
    expect(moneyColumns([{ amount: 1, meta_amount: 1 }]).map((c) => c.field)).toEqual(['amount', 'meta_amount']);
    expect(money(1234.5, 'USD')).toBe('1,234.5000 USD');
  });

  it('splits the budget’s bar into spent, reserved and remaining; none without a budget', () => {
    // Prepare
    const budget = { client_id: 7, currency: 'USD', month: '2026-11', spent: 25, reserved: 15, monthly_amount: 100, remaining: 60 };
    // Act, Assess
    expect(budgetShares(budget)).toEqual({ spent: 25, reserved: 15, remaining: 60 });
    expect(budgetShares({ ...budget, spent: 90, reserved: 30, remaining: 0 })).toEqual({ spent: 90, reserved: 10, remaining: 0 });
    expect(budgetShares({ ...budget, monthly_amount: null, remaining: null })).toBeUndefined();
  });

  it('reads a month’s days up to today', () => {
    expect(monthDays('2026-11', new Date('2026-11-27T12:00:00Z'))).toEqual({ from: '2026-11-01', to: '2026-11-27' });
    expect(monthDays('2026-02', new Date('2026-11-27T12:00:00Z'))).toEqual({ from: '2026-02-01', to: '2026-02-28' });
  });
});
