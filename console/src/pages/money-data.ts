/**
 * The money page's figures, shaped from the API's answers without a browser (issue 45): usage by day stacked by
 * market or category, its table's columns, the month's budget, a statement's columns. What a caller may see is the
 * API's to decide (lib/domain/money/pricing/visibility.ts): a field the answer lacks is never shown, so an agent of a
 * client with a price list, whose answers carry no Meta cost, sees neither the figure nor a column for it.
 */

import type { Budget, Statement, UsageAnswer, UsageRow } from '../answers.ts';

/** A row of `GET /v1/usage`, as lib/schemas types it (console/src/answers.ts). */
export type { UsageRow };

/** What the chart stacks by: the switch above it. */
export type StackBy = 'market' | 'category';

/** The query of the page's usage: by day and the stacking group, for the client the page shows. */
export const usageQuery = (clientId: number, from: string, to: string, stackBy: StackBy) => ({
  client_id: clientId,
  from,
  to,
  group_by: `day,${stackBy}`,
});

/**
 * The figure a row is drawn with: what the client is billed, its price where a price list applied, Meta's cost
 * elsewhere. A row has at least one of them; BSP_CN's rows carry both.
 */
export function billed(row: UsageRow): { value: number; currency: string } {
  if (row.price !== undefined) return { value: row.price, currency: row.price_currency ?? row.currency };
  return { value: row.amount ?? 0, currency: row.currency };
}

export interface UsageSeries {
  /** The market or category, with its currency where the rows hold more than one. */
  label: string;
  key: string;
  currency: string;
  /** One a day of `days`. */
  values: number[];
  total: number;
  messages: number;
}

export interface UsageChart {
  stackBy: StackBy;
  days: string[];
  series: UsageSeries[];
  /** The period's billed total a currency. */
  totals: { currency: string; total: number; messages: number }[];
}

/** Rounds to the micro-unit, as the API's figures are kept, so sums of many rows print as the API's do. */
const micros = (n: number) => Math.round(n * 1e6) / 1e6;

/** The chart of `GET /v1/usage?group_by=day,<stackBy>`: a series a market (or category) and currency, a bar a day. */
export function usageChart(answer: Pick<UsageAnswer, 'data'>, stackBy: StackBy): UsageChart {
  const days = [...new Set(answer.data.map((r) => r.period ?? r.from))].sort();
  const currencies = new Set(answer.data.map((r) => billed(r).currency));
  const byKey = new Map<string, UsageSeries>();
  for (const row of answer.data) {
    const group = row[stackBy] ?? 'unknown';
    const { value, currency } = billed(row);
    const key = `${group}|${currency}`;
    let series = byKey.get(key);
    if (!series) {
      series = {
        label: currencies.size > 1 ? `${group} (${currency})` : group,
        key,
        currency,
        values: days.map(() => 0),
        total: 0,
        messages: 0,
      };
      byKey.set(key, series);
    }
    const day = days.indexOf(row.period ?? row.from);
    series.values[day] = micros(series.values[day] + value);
    series.total = micros(series.total + value);
    series.messages += row.messages;
  }
  const series = [...byKey.values()].sort((a, b) => b.total - a.total || a.label.localeCompare(b.label));
  const totals = [...currencies].sort().map((currency) => {
    const of = series.filter((s) => s.currency === currency);
    return {
      currency,
      total: micros(of.reduce((sum, s) => sum + s.total, 0)),
      messages: of.reduce((sum, s) => sum + s.messages, 0),
    };
  });
  return { stackBy, days, series, totals };
}

/** An amount as the page prints it: 4 decimals (the CSV's), with its currency. */
export const money = (value: number, currency: string) =>
  `${value.toLocaleString('en', { minimumFractionDigits: 4, maximumFractionDigits: 4 })} ${currency}`;

/** The columns of the usage table: only the figures the answer carries. */
export interface MoneyColumn {
  field: 'amount' | 'price' | 'margin' | 'meta_amount';
  heading: string;
}

const MONEY_COLUMNS: MoneyColumn[] = [
  { field: 'amount', heading: 'Meta cost' },
  { field: 'price', heading: 'Price' },
  { field: 'margin', heading: 'Margin' },
  { field: 'meta_amount', heading: 'Meta’s figure' },
];

export const moneyColumns = (rows: readonly Partial<Record<MoneyColumn['field'], unknown>>[]): MoneyColumn[] =>
  MONEY_COLUMNS.filter((c) => rows.some((r) => r[c.field] !== undefined));

/** The budget's bar: spent, reserved and remaining as shares of the budget (none without one). */
export function budgetShares(budget: Budget): { spent: number; reserved: number; remaining: number } | undefined {
  if (!budget.monthly_amount) return undefined;
  const share = (n: number) => Math.max(0, Math.min(100, (n / budget.monthly_amount!) * 100));
  const spent = share(budget.spent);
  const reserved = Math.min(share(budget.reserved), 100 - spent);
  return { spent, reserved, remaining: 100 - spent - reserved };
}

/** The month (UTC) a date is in, `YYYY-MM`. */
export const monthOf = (date: Date) => date.toISOString().slice(0, 7);

/** The first and last day of a month, `YYYY-MM-DD`; the last no later than `today`. */
export function monthDays(month: string, today: Date): { from: string; to: string } {
  const [year, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10);
  const now = today.toISOString().slice(0, 10);
  return { from: `${month}-01`, to: [last, now].sort()[0] };
}

/** Whether the answer shows Meta's cost anywhere: only BSP_CN's (and an agent's of a client without a price list). */
export const statementShowsCost = (statement: Statement) =>
  statement.statements.some((s) => s.totals.cost !== undefined || s.lines.some((l) => l.cost !== undefined));
