import { daysOfMonth, monthOf } from '../../shared/calendar.ts';
import { cardIdOf } from '../pricing/rate-card.ts';
import { rateCards } from '../pricing/cards/index.ts';
import type { PriceList } from '../pricing/price-list.ts';
import type { CostLedger, ExchangeRateApplied, LedgerEntry, StatementSnapshot, StatementStore } from '../ports.ts';
import { adjustmentLines, canonicalLines, chargeLines, mergeStatements, onTimePart } from './lines.ts';
import { FIRST_MONTH } from './months.ts';

// A client's books (decisions §30): a month's statement is its days' charges applied before it closed and the late
// charges filed under it as they were applied (months.ts lateFiledUnder), so a month is read from its own items
// only, whatever the client's history. The close job keeps it; a read of a month not closed writes nothing.

/** A price list as the books read it: its version, its currency and the rates it converts Meta's cost at. */
export type BooksList = Pick<PriceList, 'effective_from' | 'currency' | 'exchange_rates'>;

/** What composing a month reads: the ledger, the client's price lists, and a hash. */
export interface BooksDeps {
  ledger: CostLedger;
  /** The client's price lists: which were in force on the days charged, and the rates they applied. */
  lists: BooksList[];
  /** Hex sha256 of a text (node:crypto's at the edge). */
  sha256: (text: string) => string;
}

/** A client and its WABAs: whose ledger a month is read from. */
export interface ClientBooks {
  clientId: number;
  wabas: string[];
}

/**
 * A month's statement from the ledger as it is now: the on-time part of its days' charges, and the late charges
 * filed under it as `adjustment` lines naming their month. Each charge is on exactly one month's: its own, or the
 * one open when it was applied after its own closed.
 */
export async function composeMonth(deps: BooksDeps, books: ClientBooks, month: string, atMs: number): Promise<StatementSnapshot> {
  const { from, to } = daysOfMonth(month);
  const [days, late] = await Promise.all([
    deps.ledger.charges(books.wabas, books.clientId, from, to),
    deps.ledger.adjustments(books.wabas, books.clientId, month, month),
  ]);
  const entries = days.map(onTimePart).filter((e) => e !== undefined);
  const statements = mergeStatements(chargeLines(entries), adjustmentLines(late));
  const priced = pricedBy(entries, deps.lists);
  return {
    client_id: books.clientId,
    month,
    taken_at: new Date(atMs).toISOString(),
    statements,
    card_versions: cardVersions(entries),
    price_list_versions: [...new Set(priced.map(({ list }) => list.effective_from))].sort(),
    // Kept with the month, never read again: a closed month prints the rate it was billed at (decisions §31).
    exchange_rates: ratesApplied(priced),
    lines_sha256: deps.sha256(canonicalLines(statements)),
  };
}

/**
 * Whether the client has a statement of `month` (decisions §30: from the month of its first charge to the open
 * month), for a month not closed: after its last closed month (closed months run without a gap from the first), or,
 * with none closed yet, not before its first charge (read from the ledger: the one read that spans months).
 */
export async function hasStatement(
  deps: { ledger: CostLedger; statements: Pick<StatementStore, 'latest'> },
  books: ClientBooks,
  month: string,
) {
  const latest = await deps.statements.latest(books.clientId);
  if (latest) return latest.month < month;
  const first = await firstChargeMonth(deps, books, month);
  return first !== undefined && first <= month;
}

/** The month of the client's first charge (the day charged, on time or late) up to `month`'s end, or undefined. */
export async function firstChargeMonth(deps: Pick<BooksDeps, 'ledger'>, books: ClientBooks, month: string) {
  const entries = await deps.ledger.charges(books.wabas, books.clientId, `${FIRST_MONTH}-01`, daysOfMonth(month).to);
  const first = entries.reduce<string | undefined>((day, e) => (day === undefined || e.day < day ? e.day : day), undefined);
  return first === undefined ? undefined : monthOf(first);
}

/** The rate cards in force on the days charged, in each currency charged (`meta-<date>-<CUR>`). */
function cardVersions(entries: LedgerEntry[]) {
  const ids = new Set(entries.map((e) => cardIdOf(rateCards.inForce(e.day, e.currency, [e.market]).card)));
  return [...ids].sort();
}

/** Each entry a price was charged for, with the list in force on its day. */
function pricedBy(entries: LedgerEntry[], lists: BooksList[]) {
  const ordered = [...lists].sort((a, b) => a.effective_from.localeCompare(b.effective_from));
  return entries
    .filter((entry) => entry.price_micros !== undefined)
    .flatMap((entry) => {
      const list = ordered.findLast((l) => l.effective_from <= entry.day);
      return list ? [{ entry, list }] : [];
    });
}

/**
 * The rates the lists converted the month's costs at (decisions §31): a list's rate for each currency Meta charged
 * in other than its own, once a list and currency, in list and currency order.
 */
function ratesApplied(priced: { entry: LedgerEntry; list: BooksList }[]): ExchangeRateApplied[] {
  const rates = new Map<string, ExchangeRateApplied>();
  for (const { entry, list } of priced) {
    const rate = list.exchange_rates?.[entry.currency];
    if (entry.currency === list.currency || rate === undefined) continue;
    rates.set(`${list.effective_from}|${entry.currency}`, {
      price_list: list.effective_from,
      currency: list.currency,
      per: entry.currency,
      rate,
    });
  }
  return [...rates.values()].sort((a, b) => a.price_list.localeCompare(b.price_list) || a.per.localeCompare(b.per));
}
