import { daysOfMonth, monthAfter, monthOf } from '../../shared/calendar.ts';
import { cardIdOf } from '../pricing/rate-card.ts';
import { rateCards } from '../pricing/cards/index.ts';
import type { CostLedger, CurrencyStatement, LedgerEntry, StatementSnapshot } from '../ports.ts';
import { adjustmentLines, canonicalLines, chargeLines, mergeStatements } from './lines.ts';
import { FIRST_MONTH } from './months.ts';

// A client's books (decisions §30): a month's statement as the ledger and the closed months make it. The close job
// keeps it; a read of a month not closed answers it as it is, and writes nothing.

/** What composing a month reads: the ledger, the client's price lists, and a hash. */
export interface BooksDeps {
  ledger: CostLedger;
  /** The client's price lists (their `effective_from`): which were in force on the days charged. */
  lists: { effective_from: string }[];
  /** Hex sha256 of a text (node:crypto's at the edge). */
  sha256: (text: string) => string;
}

/** A client, its WABAs, and its closed months oldest first (contiguous: the close job keeps every one in turn). */
export interface ClientBooks {
  clientId: number;
  wabas: string[];
  closed: StatementSnapshot[];
}

/**
 * A month's statement from the ledger as it is now: its charges, and, on the first month not closed (the one the
 * job closes next), the late charges of every closed month as `adjustment` lines naming it, so each charge is
 * billed once: the month's ledger less its snapshot less its adjustments on later closed statements.
 */
export async function composeMonth(deps: BooksDeps, books: ClientBooks, month: string, atMs: number): Promise<StatementSnapshot> {
  const { from, to } = daysOfMonth(month);
  const entries = await deps.ledger.charges(books.wabas, books.clientId, from, to);
  const latest = books.closed.at(-1);
  const late = latest && monthAfter(latest.month) === month ? await lateCharges(deps, books) : [];
  const statements = mergeStatements(chargeLines(entries), late);
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

/** The charges of the closed months not yet billed, each month's as adjustment lines. */
async function lateCharges(deps: BooksDeps, books: ClientBooks): Promise<CurrencyStatement[]> {
  const { closed } = books;
  const from = daysOfMonth(closed[0].month).from;
  const to = daysOfMonth(closed[closed.length - 1].month).to;
  const ledger = await deps.ledger.charges(books.wabas, books.clientId, from, to);
  return closed.flatMap(({ month }) => {
    const now = chargeLines(ledger.filter((e) => monthOf(e.day) === month));
    return adjustmentLines(month, now, billedOf(month, closed));
  });
}

/** What the closed statements billed of a month: its own charge lines and its adjustments on later ones. */
function billedOf(month: string, closed: StatementSnapshot[]): CurrencyStatement[] {
  return closed.flatMap((snapshot) =>
    snapshot.statements.map(({ currency, lines }) => ({
      currency,
      lines: snapshot.month === month ? lines.filter((l) => l.kind === 'charge') : lines.filter((l) => l.of_month === month),
    })),
  );
}

/**
 * The month of the client's first charge up to `month`'s end, or undefined: statements run from it to the open
 * month (decisions §30). A client with closed months started at the first of them.
 */
export async function firstChargeMonth(deps: Pick<BooksDeps, 'ledger'>, books: ClientBooks, month: string) {
  if (books.closed.length > 0) return books.closed[0].month;
  const entries = await deps.ledger.charges(books.wabas, books.clientId, `${FIRST_MONTH}-01`, daysOfMonth(month).to);
  const first = entries.reduce<string | undefined>((day, e) => (day === undefined || e.day < day ? e.day : day), undefined);
  return first === undefined ? undefined : monthOf(first);
}

/** The rate cards in force on the days charged, in each currency charged (`meta-<date>-<CUR>`). */
function cardVersions(entries: LedgerEntry[]) {
  const ids = new Set(entries.map((e) => cardIdOf(rateCards.inForce(e.day, e.currency).card)));
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
