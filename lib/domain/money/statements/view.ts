import type { Client } from '../../shared/directory.ts';
import type { ExchangeRateApplied, StatementSnapshot } from '../ports.ts';
import { fromMicros } from '../../shared/money.ts';
import { daysOfMonth } from '../../shared/calendar.ts';
import { amountDue, ROUNDING_RULE } from './amount-due.ts';
import { type StatementLine, totalsOf } from './lines.ts';

type Shown = { cost: boolean; price: boolean; margin: boolean };

/** Who issues the statements (settings): the provider's name and postal address, printed on each. */
export interface StatementIssuer {
  name: string;
  address: string;
}

/**
 * A line as an answer shows it. `priced: false`, without `unit_price` or `amount`: billed before the client's price
 * list, to one of its agents, who never sees the cost it was billed at (decisions §32).
 */
export interface LineShown {
  kind: StatementLine['kind'];
  market: string;
  category: string;
  of_month?: string;
  origin?: StatementLine['origin'];
  unit_price?: number;
  messages: number;
  billable: number;
  amount?: number;
  cost?: number;
  cost_currency?: string;
  margin?: number;
  priced?: false;
}

/** A currency's totals as an answer shows them: an agent's, of the priced lines, count the others' messages. */
export interface TotalsShown {
  messages: number;
  billable: number;
  amount: number;
  cost?: number;
  cost_currency?: string;
  margin?: number;
  unpriced_messages?: number;
  unpriced_billable?: number;
}

/** One currency's statement as an answer shows it. */
export interface CurrencyShown {
  currency: string;
  lines: LineShown[];
  totals: TotalsShown;
  amount_due: ReturnType<typeof amountDue>;
}

/** A rate as a statement prints it: "Price list 2026-12-01: 17.25 MXN per USD". */
export const exchangeRateText = (r: ExchangeRateApplied) => `Price list ${r.price_list}: ${r.rate} ${r.currency} per ${r.per}`;

/** A statement's number: the same for a client and month wherever and whenever it is read. */
export const statementNumber = (clientId: number, month: string) => `ST-${clientId}-${month.replace('-', '')}`;

/**
 * A statement as its caller sees it (decisions §27, §30, §32, moneyShown). `amount` is what the client is billed: its
 * price where a price list applied, Meta's cost elsewhere; `unit_price` in micro-units of the statement's currency;
 * `amount_due` the total in the currency's minor unit, by the printed `rounding` rule. BSP_CN also sees each line's
 * and total's `cost` (and its currency where it is another) and `margin`; an agent sees neither. An agent who does
 * not see the cost (its client has a price list) sees the lines billed before the list as not priced, with no
 * amount, and totals and an amount due of the priced lines alone. One statement a currency the month was charged
 * in, in `statements` (currency order); `exchange_rates`, where a list converted Meta's cost, as kept with the month.
 */
export function statementView(
  snapshot: StatementSnapshot,
  ctx: { client: Client; status: 'open' | 'closed'; closes_at: string; shown: Shown; issuer: StatementIssuer },
) {
  const bsp = ctx.shown.cost && ctx.shown.margin;
  const rates = snapshot.exchange_rates ?? [];
  return {
    number: statementNumber(snapshot.client_id, snapshot.month),
    provider: ctx.issuer.name,
    provider_address: ctx.issuer.address,
    client_id: snapshot.client_id,
    client_name: ctx.client.client_name,
    month: snapshot.month,
    period: daysOfMonth(snapshot.month),
    status: ctx.status,
    closes_at: ctx.closes_at,
    ...(ctx.status === 'closed' && { closed_snapshot_at: snapshot.taken_at }),
    statements: snapshot.statements.map(({ currency, lines }) =>
      ctx.shown.cost ? currencyView(currency, lines, bsp) : pricedCurrencyView(currency, lines),
    ),
    rounding: ROUNDING_RULE,
    card_versions: snapshot.card_versions,
    price_list_versions: snapshot.price_list_versions,
    // A rate is not a cost, margin or markup: every reader sees it (decisions §31, §32).
    ...(rates.length > 0 && { exchange_rates: rates }),
    lines_sha256: snapshot.lines_sha256,
  };
}

/** One currency's lines and totals, every line at what it billed (BSP_CN, and agents of a client without a list). */
function currencyView(currency: string, lines: StatementLine[], bsp: boolean): CurrencyShown {
  const totals = totalsOf(lines);
  return {
    currency,
    lines: lines.map((line) => lineView(line, currency, bsp)),
    totals: {
      messages: totals.messages,
      billable: totals.billable,
      amount: fromMicros(totals.amount_micros),
      ...(bsp && totals.cost_currency !== undefined && costOf(totals, currency)),
    },
    amount_due: amountDue(totals.amount_micros, currency),
  };
}

/**
 * One currency as an agent of a client with a price list sees it (decisions §32): a line billed before the list
 * is at Meta's cost, so it is named as not priced and shows no unit price or amount; the totals and the amount
 * due are of the priced lines, and count the messages of the rest.
 */
function pricedCurrencyView(currency: string, lines: StatementLine[]): CurrencyShown {
  const totals = totalsOf(lines.filter((line) => line.priced));
  const unpriced = totalsOf(lines.filter((line) => !line.priced));
  return {
    currency,
    lines: lines.map((line) => (line.priced ? lineView(line, currency, false) : unpricedLineView(line))),
    totals: {
      messages: totals.messages,
      billable: totals.billable,
      amount: fromMicros(totals.amount_micros),
      ...(unpriced.messages > 0 && { unpriced_messages: unpriced.messages, unpriced_billable: unpriced.billable }),
    },
    amount_due: amountDue(totals.amount_micros, currency),
  };
}

/** What a line is and how many it bills, as every viewer sees it. */
const lineOf = (line: StatementLine) => ({
  kind: line.kind,
  market: line.market,
  category: line.category,
  ...(line.of_month && { of_month: line.of_month }),
  ...(line.origin && { origin: line.origin }),
});

/** A line billed before the client's price list, as its agent sees it: what and how many, never at what cost. */
function unpricedLineView(line: StatementLine): LineShown {
  return { ...lineOf(line), messages: line.messages, billable: line.billable, priced: false };
}

function lineView(line: StatementLine, currency: string, bsp: boolean) {
  return {
    ...lineOf(line),
    unit_price: line.unit_price,
    messages: line.messages,
    billable: line.billable,
    amount: fromMicros(line.amount_micros),
    ...(bsp && costOf(line, currency)),
  };
}

/** Meta's cost of a line or total, and the margin where both are in one currency (BSP_CN). */
function costOf(money: { amount_micros: number; cost_micros: number; cost_currency?: string }, currency: string) {
  const same = money.cost_currency === currency;
  return {
    cost: fromMicros(money.cost_micros),
    ...(!same && { cost_currency: money.cost_currency }),
    ...(same && { margin: fromMicros(money.amount_micros - money.cost_micros) }),
  };
}
