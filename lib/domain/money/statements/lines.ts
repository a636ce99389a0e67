import type { AdjustmentEntry, CurrencyStatement, LedgerEntry, StatementLine } from '../ports.ts';
import { fromMicros } from '../../shared/money.ts';

export type { CurrencyStatement, StatementLine } from '../ports.ts';

// A month's statement lines (decisions §27, §30): pure, from the ledger's day entries and its late charges.

/** What the client pays of an entry, and in which currency: its price where a list applied, else its cost. */
const paidOf = (e: Pick<LedgerEntry, 'micros' | 'currency' | 'price_micros' | 'price_currency'>) =>
  e.price_micros !== undefined
    ? { micros: e.price_micros, currency: e.price_currency ?? e.currency, priced: true }
    : { micros: e.micros, currency: e.currency, priced: false };

/** A's unit price: amount ÷ billable messages, in whole micro-units (free messages: 0). */
export const unitPriceOf = (micros: number, billable: number) => (billable > 0 ? Math.round(micros / billable) : 0);

/**
 * The charge lines of a month's entries: each day's entries of a market, category and currency summed (every
 * number and ledger shard), priced at that day's unit price; days with equal unit prices make one line.
 */
export function chargeLines(entries: LedgerEntry[]): CurrencyStatement[] {
  const days = new Map<string, { day: string; market: string; category: string; currency: string; line: StatementLine }>();
  for (const e of entries) {
    const paid = paidOf(e);
    const id = [e.day, e.market, e.category, paid.currency, e.currency, e.origin].join('|');
    const known = days.get(id) ?? {
      day: e.day,
      market: e.market,
      category: e.category,
      currency: paid.currency,
      line: emptyLine('charge', e.market, e.category, e.currency, e.origin),
    };
    addTo(known.line, {
      messages: e.messages,
      billable: e.billable,
      amount_micros: paid.micros,
      cost_micros: e.micros,
      priced: paid.priced,
    });
    days.set(id, known);
  }
  const lines = new Map<string, { currency: string; line: StatementLine }>();
  for (const { currency, line: day } of days.values()) {
    const unit = unitPriceOf(day.amount_micros, day.billable);
    const id = [currency, day.market, day.category, unit, day.cost_currency, day.origin].join('|');
    const known = lines.get(id) ?? {
      currency,
      line: { ...emptyLine('charge', day.market, day.category, day.cost_currency, day.origin), unit_price: unit },
    };
    addTo(known.line, day);
    lines.set(id, known);
  }
  return byCurrency([...lines.values()]);
}

/**
 * A day's entry as its own month bills it (decisions §30): less the part applied after the month closed, which a
 * later month bills; undefined when all of it came late.
 */
export function onTimePart(e: LedgerEntry): LedgerEntry | undefined {
  const { late, ...entry } = e;
  if (!late) return entry;
  entry.messages -= late.messages;
  entry.billable -= late.billable;
  entry.micros -= late.micros;
  if (entry.price_micros !== undefined) entry.price_micros -= late.price_micros ?? 0;
  return entry.messages > 0 || entry.micros > 0 ? entry : undefined;
}

/**
 * The adjustment lines of the late charges filed under a month (decisions §30): one a currency × month adjusted ×
 * market × category × origin, at the unit price its sums make.
 */
export function adjustmentLines(entries: AdjustmentEntry[]): CurrencyStatement[] {
  const sums = new Map<string, { currency: string; line: StatementLine }>();
  for (const e of entries) {
    const paid = paidOf(e);
    const id = [paid.currency, e.of_month, e.market, e.category, e.currency, e.origin].join('|');
    const known = sums.get(id) ?? {
      currency: paid.currency,
      line: { ...emptyLine('adjustment', e.market, e.category, e.currency, e.origin), of_month: e.of_month },
    };
    addTo(known.line, {
      messages: e.messages,
      billable: e.billable,
      amount_micros: paid.micros,
      cost_micros: e.micros,
      priced: paid.priced,
    });
    sums.set(id, known);
  }
  for (const { line } of sums.values()) line.unit_price = unitPriceOf(line.amount_micros, line.billable);
  return byCurrency([...sums.values()]);
}

/** Two sets of statements as one: each currency's lines, charges first, each kind by market, category and unit price. */
export function mergeStatements(...sets: CurrencyStatement[][]): CurrencyStatement[] {
  return byCurrency(sets.flat().flatMap(({ currency, lines }) => lines.map((line) => ({ currency, line }))));
}

/** A statement's totals: messages, billable messages, what the client pays and (one cost currency) Meta's cost. */
export function totalsOf(lines: StatementLine[]) {
  const costCurrencies = new Set(lines.map((l) => l.cost_currency));
  return {
    messages: lines.reduce((sum, l) => sum + l.messages, 0),
    billable: lines.reduce((sum, l) => sum + l.billable, 0),
    amount_micros: lines.reduce((sum, l) => sum + l.amount_micros, 0),
    cost_micros: lines.reduce((sum, l) => sum + l.cost_micros, 0),
    cost_currency: costCurrencies.size === 1 ? [...costCurrencies][0] : undefined,
    priced: lines.some((l) => l.priced),
  };
}

/**
 * The lines as the client sees and hashes them (decisions §27): per currency (in order), each line's kind,
 * market, category, month adjusted, unit price, messages, billable messages and amount, in that key order. The
 * statement's `lines_sha256` is the sha256 of this JSON text, so anyone holding the JSON can check it.
 */
export function canonicalLines(statements: CurrencyStatement[]) {
  return JSON.stringify(
    statements.map(({ currency, lines }) => ({
      currency,
      lines: lines.map((l) => ({
        kind: l.kind,
        market: l.market,
        category: l.category,
        ...(l.of_month && { of_month: l.of_month }),
        ...(l.origin && { origin: l.origin }),
        unit_price: l.unit_price,
        messages: l.messages,
        billable: l.billable,
        amount: fromMicros(l.amount_micros),
      })),
    })),
  );
}

const emptyLine = (
  kind: StatementLine['kind'],
  market: string,
  category: string,
  costCurrency: string,
  origin?: 'outside',
): StatementLine => ({
  kind,
  market,
  category,
  ...(origin && { origin }),
  unit_price: 0,
  messages: 0,
  billable: 0,
  amount_micros: 0,
  cost_micros: 0,
  cost_currency: costCurrency,
  priced: false,
});

function addTo(line: StatementLine, more: Pick<StatementLine, 'messages' | 'billable' | 'amount_micros' | 'cost_micros' | 'priced'>) {
  line.messages += more.messages;
  line.billable += more.billable;
  line.amount_micros += more.amount_micros;
  line.cost_micros += more.cost_micros;
  line.priced ||= more.priced;
}

const KIND_ORDER = { charge: 0, adjustment: 1 };

function byCurrency(lines: { currency: string; line: StatementLine }[]): CurrencyStatement[] {
  const currencies = [...new Set(lines.map((l) => l.currency))].sort();
  return currencies.map((currency) => ({
    currency,
    lines: lines
      .filter((l) => l.currency === currency)
      .map((l) => l.line)
      .sort(
        (a, b) =>
          KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
          (a.of_month ?? '').localeCompare(b.of_month ?? '') ||
          (a.origin ?? '').localeCompare(b.origin ?? '') ||
          a.market.localeCompare(b.market) ||
          a.category.localeCompare(b.category) ||
          a.unit_price - b.unit_price ||
          a.cost_currency.localeCompare(b.cost_currency),
      ),
  }));
}
