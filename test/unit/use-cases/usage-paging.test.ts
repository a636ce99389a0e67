import { describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { MAX_ROWS, usage } from '#lib/domain/money/usage.ts';
import { InvalidRequest } from '#lib/domain/shared/errors.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/** A usage range is bounded and pages (decisions §32, issue 52 item 4): client 7 of the demo fixture, WABA 100200300. */
const DAYS = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05'];

function fiveDays() {
  const world = memoryWorld();
  const ledger = new MemoryCostLedger();
  const market = rateCards.marketOfRegion('MX', DAYS[0]);
  for (const day of DAYS)
    ledger.charge('100200300', 7, {
      day,
      did: '5215550001',
      market,
      category: 'marketing',
      currency: 'USD',
      messages: 1,
      billable: 1,
      micros: 10,
    });
  const deps = { ledger, directory: world.directory, sends: world.sends, priceLists: world.priceLists };
  const page = (more: { cursor?: string; limit?: number; from?: string; to?: string } = {}) =>
    usage(deps, callerOf(7), { from: DAYS[0], to: DAYS[4], group_by: 'day', ...more });
  return { page };
}

describe('usage in pages (decisions §32)', () => {
  it('answers the rows in pages of `limit`, each naming the cursors of the pages around it', async () => {
    // Prepare
    const { page } = fiveDays();
    // Act
    const first = await page({ limit: 2 });
    const second = await page({ limit: 2, cursor: first.paging.cursors.after });
    const last = await page({ limit: 2, cursor: second.paging.cursors.after });
    const back = await page({ limit: 2, cursor: last.paging.cursors.before });
    // Assess: every day once, in order; the first page has no `before`, the last no `after`
    expect([first, second, last].flatMap((p) => p.data.map((row) => row.period))).toEqual(DAYS);
    expect(first.paging.cursors).not.toHaveProperty('before');
    expect(last.paging.cursors).not.toHaveProperty('after');
    expect(back.data).toEqual(second.data);
    expect(first).toMatchObject({ client_id: 7, from: DAYS[0], to: DAYS[4], group_by: 'day', currency: 'USD' });
  });

  it('answers every row on one page without a limit, as before, with no cursor', async () => {
    // Prepare
    const { page } = fiveDays();
    // Act
    const all = await page();
    // Assess
    expect(all.data).toHaveLength(5);
    expect(all.paging).toEqual({ cursors: {} });
  });

  it('refuses a cursor it did not give, a limit over MAX_ROWS and a range over 366 days, each a 400', async () => {
    // Prepare
    const { page } = fiveDays();
    // Act
    const answers = await Promise.allSettled([
      page({ cursor: 'not-a-cursor' }),
      page({ cursor: btoa('usage:-1') }),
      page({ limit: MAX_ROWS + 1 }),
      page({ from: '2025-01-01', to: '2026-01-02' }),
    ]);
    // Assess
    for (const answer of answers) {
      expect(answer.status).toBe('rejected');
      expect((answer as PromiseRejectedResult).reason).toBeInstanceOf(InvalidRequest);
    }
    await expect(page({ from: '2025-01-01', to: '2026-01-01' })).resolves.toBeDefined();
  });
});
