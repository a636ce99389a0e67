import type { Caller } from '../../shared/caller.ts';
import { InvalidRequest, NotFound } from '../../shared/errors.ts';
import { moneyShown } from '../pricing/visibility.ts';
import type { CostLedger, StatementSnapshot, StatementStore } from '../ports.ts';
import type { DirectoryStore } from '../../shared/ports.ts';
import { actingClient } from '../../shared/tenancy.ts';
import type { PriceListVersions } from '../usage.ts';
import { dayIn, monthOf } from '../../shared/calendar.ts';
import { billingZoneOf, type ClientClockDeps, clientClocks } from '../billing-zone.ts';
import { type BooksList, type ClientBooks, composeMonth, hasStatement } from './books.ts';
import { closesAt, FIRST_MONTH } from './months.ts';
import { type StatementIssuer, statementView } from './view.ts';

export type { StatementIssuer } from './view.ts';

export interface StatementDeps extends ClientClockDeps {
  ledger: CostLedger;
  directory: Pick<DirectoryStore, 'getClient' | 'listClientWabas'>;
  /** Read only: a read never closes a month (decisions §30). */
  statements: Pick<StatementStore, 'get' | 'latest'>;
  priceLists: PriceListVersions;
  /** Hex sha256 of a text (node:crypto's at the edge). */
  sha256: (text: string) => string;
  /** Who issues the statements: the provider's name and address (settings). */
  issuer: StatementIssuer;
  /** The clock (ms since the epoch): which month is open. */
  now?: () => number;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * GET /v1/clients/{client_id}/statements/{YYYY-MM} (decisions §27, §30): a client's month, one line per market ×
 * category × unit price (and origin) in each currency the month was charged in, its totals, and the card and
 * price-list versions used, with the exchange rates the lists applied (decisions §31). A month the close job closed
 * answers its snapshot, `closed`; any other is composed from its own items of the ledger as they are, `open` (a
 * month past its close time that the job has not closed yet included: it shows what the job will keep). A month
 * before the client's first charge, or with no charge at all, is 404. Nothing here writes.
 */
export async function statement(deps: StatementDeps, caller: Caller, input: { client_id: number; month: string }) {
  const clientId = actingClient(caller, input.client_id);
  const client = await deps.directory.getClient(clientId);
  if (!client) throw new NotFound(`client ${clientId} not found`);
  const now = deps.now?.() ?? Date.now();
  const month = input.month;
  if (!MONTH.test(month)) throw new InvalidRequest('month must be YYYY-MM');
  // The month and its close time in the client's billing timezone (decisions §31).
  const zone = billingZoneOf(await clientClocks(deps, clientId), month);
  if (month > monthOf(dayIn(now, zone))) throw new InvalidRequest(`${month} is in the future`);
  const noStatement = new NotFound(`client ${clientId} has no statement of ${month}`);
  if (month < FIRST_MONTH) throw noStatement;
  const lists = await deps.priceLists.lists(clientId);
  const kept = await deps.statements.get(clientId, month);
  const made = kept ?? (await openMonth(deps, clientId, month, now, lists));
  if (!made) throw noStatement;
  return statementView(made, {
    client,
    status: kept ? 'closed' : 'open',
    closes_at: new Date(closesAt(month, zone)).toISOString(),
    shown: moneyShown(caller, lists.length > 0),
    issuer: deps.issuer,
  });
}

/** A month not closed, as the ledger makes it now; undefined when the client has no statement of it. */
async function openMonth(
  deps: StatementDeps,
  clientId: number,
  month: string,
  now: number,
  lists: BooksList[],
): Promise<StatementSnapshot | undefined> {
  const books: ClientBooks = { clientId, wabas: await deps.directory.listClientWabas(clientId) };
  const made = await composeMonth({ ledger: deps.ledger, lists, sha256: deps.sha256 }, books, month, now);
  if (made.statements.length > 0) return made;
  return (await hasStatement(deps, books, month)) ? made : undefined;
}
