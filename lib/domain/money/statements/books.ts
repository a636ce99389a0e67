import { daysOfMonth, monthOf } from '../../shared/calendar.ts';
import { cardIdOf } from '../pricing/rate-card.ts';
import { rateCards } from '../pricing/cards/index.ts';
import type { CostLedger, LedgerEntry, StatementSnapshot, StatementStore } from '../ports.ts';
import { adjustmentLines, canonicalLines, chargeLines, mergeStatements, onTimePart } from './lines.ts';
import { FIRST_MONTH } from './months.ts';

// A client's books (decisions §30): a month's statement is its days' charges applied before it closed and the late
// charges filed under it as they were applied (months.ts lateFiledUnder), so a month is read from its own items
// only, whatever the client's history. The close job keeps it; a read of a month not closed writes nothing.

/** What composing a month reads: the ledger, the client's price lists, and a hash. */
export interface BooksDeps {
  ledger: CostLedger;
  /** The client's price lists (their `effective_from`): which were in force on the days charged. */
  lists: { effective_from: string }[];
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
  return {
    client_id: books.clientId,
    month,
    taken_at: new Date(atMs).toISOString(),
    statements,
    card_versions: cardVersions(entries),
    price_list_versions: listVersions(entries, deps.lists),
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

/** The price lists (their `effective_from`) in force on the days a price was charged. */
function listVersions(entries: LedgerEntry[], lists: { effective_from: string }[]) {
  const ordered = [...lists].sort((a, b) => a.effective_from.localeCompare(b.effective_from));
  const ids = new Set<string>();
  for (const e of entries.filter((entry) => entry.price_micros !== undefined)) {
    const list = ordered.findLast((l) => l.effective_from <= e.day);
    if (list) ids.add(list.effective_from);
  }
  return [...ids].sort();
}
