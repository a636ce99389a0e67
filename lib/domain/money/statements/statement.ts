import type { Caller } from '../../shared/caller.ts';
import { InvalidRequest, NotFound } from '../../shared/errors.ts';
import { cardIdOf } from '../pricing/rate-card.ts';
import { rateCards } from '../pricing/cards/index.ts';
import { moneyShown } from '../pricing/visibility.ts';
import type { CostLedger, LedgerEntry, StatementSnapshot, StatementStore } from '../ports.ts';
import type { DirectoryStore } from '../../shared/ports.ts';
import { actingClient } from '../../shared/tenancy.ts';
import type { PriceListVersions } from '../usage.ts';
import { adjustmentLines, type CurrencyStatement, canonicalLines, chargeLines, mergeStatements } from './lines.ts';
import { daysOfMonth, monthBefore, monthOf } from '../../shared/calendar.ts';
import { closesAt, statusOf } from './months.ts';
import { statementView } from './view.ts';

/** Who issues the statements: the provider's name on every statement. */
export const STATEMENT_PROVIDER = 'Template Messaging Service';

export interface StatementDeps {
  ledger: CostLedger;
  directory: Pick<DirectoryStore, 'getClient' | 'listClientWabas'>;
  statements: StatementStore;
  priceLists: PriceListVersions;
  /** Hex sha256 of a text (node:crypto's at the edge). */
  sha256: (text: string) => string;
  /** The clock (ms since the epoch): which months are open. */
  now?: () => number;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * GET /v1/clients/{client_id}/statements/{YYYY-MM} (decisions §27): a client's month, one line per market ×
 * category × unit price in each currency the month was charged in, its totals, and the card and price-list versions
 * used. The current month is `open` (read from the ledger as it is); from the 3rd of the next month it is `closed`:
 * its first read then keeps the statement (StatementStore), and every later read answers that snapshot. Charges
 * that reach the ledger of a closed month after its snapshot are billed on the month after as `adjustment` lines.
 */
export async function statement(deps: StatementDeps, caller: Caller, input: { client_id: number; month: string }) {
  const clientId = actingClient(caller, input.client_id);
  const client = await deps.directory.getClient(clientId);
  if (!client) throw new NotFound(`client ${clientId} not found`);
  const now = deps.now?.() ?? Date.now();
  const month = input.month;
  if (!MONTH.test(month)) throw new InvalidRequest('month must be YYYY-MM');
  if (month > monthOf(now)) throw new InvalidRequest(`${month} is in the future`);
  const lists = await deps.priceLists.lists(clientId);
  const status = statusOf(month, now);
  const kept = status === 'closed' ? await closedStatement(deps, clientId, month, now, lists, KEEP_BEFORE) : undefined;
  const made = kept ?? (await monthStatement(deps, clientId, month, now, lists, KEEP_BEFORE));
  return statementView(made, {
    client,
    status,
    closes_at: new Date(closesAt(month)).toISOString(),
    shown: moneyShown(caller, lists.length > 0),
    provider: STATEMENT_PROVIDER,
  });
}

type Lists = { effective_from: string; currency: string }[];

/**
 * How many closed months before the one read are kept first when they were never read, each before the month after
 * it: a month's snapshot is taken only once the month before has one, so the late charges of the month before
 * always have a snapshot to be measured against (the months read, or the two before them, in order).
 */
const KEEP_BEFORE = 2;

/** A closed month's snapshot: the one kept, or the month as it is now, kept (the first read of two wins). */
async function closedStatement(deps: StatementDeps, clientId: number, month: string, now: number, lists: Lists, before: number) {
  const kept = await deps.statements.get(clientId, month);
  if (kept) return kept;
  return deps.statements.putOnce(await monthStatement(deps, clientId, month, now, lists, before));
}

/**
 * A month's statement from the ledger as it is now: its charges, and the late charges of the month before if that
 * one is closed (against its snapshot; one the service never kept is kept now, `before` months deep, so the
 * adjustments of a month never wait on a read of the month before).
 */
async function monthStatement(
  deps: StatementDeps,
  clientId: number,
  month: string,
  now: number,
  lists: Lists,
  before: number,
): Promise<StatementSnapshot> {
  const wabas = await deps.directory.listClientWabas(clientId);
  const { from, to } = daysOfMonth(month);
  const entries = await deps.ledger.charges(wabas, clientId, from, to);
  let late: CurrencyStatement[] = [];
  const previous = monthBefore(month);
  if (statusOf(previous, now) === 'closed') {
    const billed =
      before > 0 ? await closedStatement(deps, clientId, previous, now, lists, before - 1) : await deps.statements.get(clientId, previous);
    if (billed) {
      const days = daysOfMonth(previous);
      const ledgerNow = chargeLines(await deps.ledger.charges(wabas, clientId, days.from, days.to));
      late = adjustmentLines(previous, ledgerNow, billed.statements);
    }
  }
  const statements = mergeStatements(chargeLines(entries), late);
  return {
    client_id: clientId,
    month,
    taken_at: new Date(now).toISOString(),
    statements,
    card_versions: cardVersions(entries),
    price_list_versions: listVersions(entries, lists),
    lines_sha256: deps.sha256(canonicalLines(statements)),
  };
}

/** The rate cards in force on the days charged, in each currency charged (`meta-<date>-<CUR>`). */
function cardVersions(entries: LedgerEntry[]) {
  const ids = new Set(entries.map((e) => cardIdOf(rateCards.inForce(e.day, e.currency).card)));
  return [...ids].sort();
}

/** The price lists (their `effective_from`) in force on the days a price was charged. */
function listVersions(entries: LedgerEntry[], lists: Lists) {
  const ordered = [...lists].sort((a, b) => a.effective_from.localeCompare(b.effective_from));
  const ids = new Set<string>();
  for (const e of entries.filter((entry) => entry.price_micros !== undefined)) {
    const list = ordered.findLast((l) => l.effective_from <= e.day);
    if (list) ids.add(list.effective_from);
  }
  return [...ids].sort();
}
