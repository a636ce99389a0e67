import type { Log } from '../../shared/log.ts';
import type { DirectoryStore } from '../../shared/ports.ts';
import { inParallel } from '../../shared/parallel.ts';
import type { CostLedger, StatementStore } from '../ports.ts';
import type { PriceListVersions } from '../usage.ts';
import { type ClientBooks, composeMonth, firstChargeMonth } from './books.ts';
import { lastMonthToKeep, monthsFrom } from './months.ts';
import { monthAfter } from '../../shared/calendar.ts';
import { type ClientClockDeps, clientClocks } from '../billing-zone.ts';

export interface CloseMonthsDeps extends ClientClockDeps {
  ledger: CostLedger;
  directory: Pick<DirectoryStore, 'listChannels' | 'listClientWabas' | 'getClient'>;
  statements: Pick<StatementStore, 'latest' | 'putOnce'>;
  priceLists: PriceListVersions;
  /** Hex sha256 of a text (node:crypto's at the edge). */
  sha256: (text: string) => string;
  log: Log;
}

/** What a run did: the months it closed and the clients whose close failed (the worker counts both as metrics). */
export interface CloseRun {
  closed: number;
  failed: number;
}

/**
 * The close job (decisions §30), run at `atMs`: for every client, each month whose close time has passed in its
 * billing timezone (and, without a set one, in each of its WABAs' zones: months.ts lastMonthToKeep) and that
 * is not closed yet, from its first charge (or the month after its last closed one), is kept as it is now, in
 * order; each is read from its own items only (late charges were filed under the month open when they came).
 * Idempotent: a month closed is skipped, and of two runs at once the first snapshot kept wins. A client whose close fails is logged
 * and counted; the others go on, and the next run closes what this one did not.
 */
export async function closeMonths(deps: CloseMonthsDeps, atMs: number): Promise<CloseRun> {
  const clients = [...new Set((await deps.directory.listChannels()).map((c) => c.client_id))].sort((a, b) => a - b);
  const run: CloseRun = { closed: 0, failed: 0 };
  await inParallel(clients, 4, async (clientId) => {
    try {
      run.closed += await closeClient(deps, clientId, atMs);
    } catch (error) {
      run.failed += 1;
      deps.log.error('statement close failed', { client_id: clientId, error: String(error) });
    }
  });
  return run;
}

/** Closes a client's months due at `atMs` in its zones; how many it closed. */
async function closeClient(deps: CloseMonthsDeps, clientId: number, atMs: number) {
  const due = lastMonthToKeep(await clientClocks(deps, clientId), atMs);
  const latest = (await deps.statements.latest(clientId))?.month;
  if (latest !== undefined && latest >= due) return 0;
  const books: ClientBooks = { clientId, wabas: await deps.directory.listClientWabas(clientId) };
  // With no month closed yet, the first is the first charge's (the one read that spans months, once a client).
  const first = latest !== undefined ? monthAfter(latest) : await firstChargeMonth(deps, books, due);
  if (first === undefined) return 0;
  const lists = await deps.priceLists.lists(clientId);
  const months = monthsFrom(first, due);
  for (const month of months) {
    await deps.statements.putOnce(await composeMonth({ ledger: deps.ledger, lists, sha256: deps.sha256 }, books, month, atMs));
  }
  return months.length;
}
