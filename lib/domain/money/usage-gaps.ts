import type { Caller } from '../shared/caller.ts';
import { Forbidden } from '../shared/errors.ts';
import type { ReconciliationStore } from './ports.ts';
import { CROSS_CLIENT_MESSAGE } from '../shared/tenancy.ts';
import { checkPeriod } from './usage.ts';

/**
 * GET /v1/usage/gaps (decisions §26): every client's day × market whose ledger and Meta's own COST differ by more
 * than 1 %, with both figures, as the daily reconciliation last found them. Across clients: BSP_CN only.
 */
export async function usageGaps(
  deps: { reconciliation: Pick<ReconciliationStore, 'gaps'> },
  caller: Caller,
  query: { from: string; to: string },
) {
  if (!caller.isBsp) throw new Forbidden(CROSS_CLIENT_MESSAGE);
  checkPeriod(query.from, query.to);
  return { data: await deps.reconciliation.gaps(query.from, query.to), from: query.from, to: query.to };
}
