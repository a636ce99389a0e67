import { vi } from 'vitest';
import { EMULATOR_TOKEN } from '../../local/standins/graph/emulator.ts';
import { graphUrl } from './api.ts';

// The scheduled workers as their schedules run them, in this process, their metrics (EMF on stdout) kept out of the
// test's output.

/** The ReconcileCosts worker as its schedule runs it at noon of `day` (it reads the three days before). */
export async function reconcileAt(day: string) {
  Object.assign(process.env, { GRAPH_API_URL: graphUrl(), GRAPH_API_TOKEN: EMULATOR_TOKEN });
  // The worker's metrics go to stdout as EMF lines: kept out of the test's output.
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const { handler } = await import('../../functions/workers/reconcile-costs.ts');
    return await handler({ time: `${day}T12:00:00.000Z` });
  } finally {
    write.mockRestore();
  }
}

/** The CloseStatements worker as its schedule runs it, now. */
export async function closeStatements() {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const { handler } = await import('../../functions/workers/close-statements.ts');
    return await handler({ time: new Date().toISOString() });
  } finally {
    write.mockRestore();
  }
}
