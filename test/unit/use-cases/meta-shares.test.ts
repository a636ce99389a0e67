import { describe, expect, it, vi } from 'vitest';
import { largestRemainder, sharesOfDay } from '#lib/domain/money/meta-shares.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { reconcileCosts } from '#lib/domain/money/reconcile-costs.ts';
import { usage } from '#lib/domain/money/usage.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { MemoryReconciliationStore } from '../../support/memory/money/reconciliation-store.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/**
 * Meta's figures by who sent (decisions §32, issue 52 item 3), on the in-memory stores and the Graph emulator in
 * process. In the demo fixture clients 7 (number 5215550001) and 8 (number 5215550011) share WABA 100200300, and
 * the directory lets each send from the other's number.
 */
const SHARED = '100200300';
const ACME_NUMBER = '5215550001';
const DAY = '2026-11-19';
/** A run on the 20th reads the 17th, 18th and 19th. */
const RUN_AT = '2026-11-20T06:00:00.000Z';
const market = rateCards.marketOfRegion('MX', DAY);

function reconciliation() {
  const world = memoryWorld();
  const ledger = new MemoryCostLedger();
  const store = new MemoryReconciliationStore();
  const deps = { ledger, reconciliation: store, directory: world.directory, upstream: world.upstream, log: silentLog };
  /** Messages Meta delivered from a number of the shared WABA, in Meta's books. */
  const metaBooks = (phone: string, count: number, micros: number) => {
    for (let i = 0; i < count; i++)
      world.emulator.pricing.delivered.push({
        waba_id: SHARED,
        phone_number: phone,
        day: DAY,
        country: 'MX',
        category: 'marketing',
        type: 'regular',
        micros,
        currency: 'USD',
      });
  };
  /** The same messages in the service's ledger, charged to the client that sent them. */
  const ledgerBooks = (clientId: number, did: string, messages: number, micros: number) =>
    ledger.charge(SHARED, clientId, {
      day: DAY,
      did,
      market,
      category: 'marketing',
      currency: 'USD',
      messages,
      billable: messages,
      micros,
    });
  const usageDeps = { ledger, directory: world.directory, sends: world.sends, priceLists: world.priceLists };
  const metaAmountOf = async (clientId: number) =>
    (await usage(usageDeps, callerOf(clientId), { from: DAY, to: DAY, group_by: 'day' })).data.reduce(
      (sum, row) => sum + (row.meta_amount ?? 0),
      0,
    );
  return { ledger, store, deps, metaBooks, ledgerBooks, metaAmountOf };
}

describe('Meta’s figures shared by who sent (decisions §32, in memory)', () => {
  it('gives client 8’s spend from client 7’s number to client 8: client 7’s meta_amount is 0, and no gap for either', async () => {
    // Prepare: client 8 alone sent 4 messages from client 7's number
    const { store, deps, metaBooks, ledgerBooks, metaAmountOf } = reconciliation();
    metaBooks(ACME_NUMBER, 4, 39_700);
    ledgerBooks(8, ACME_NUMBER, 4, 4 * 39_700);
    // Act
    const result = await reconcileCosts(deps, RUN_AT);
    // Assess
    expect(await metaAmountOf(7)).toBe(0);
    expect(await metaAmountOf(8)).toBeCloseTo(0.1588, 6);
    expect(result.gaps).toEqual([]);
    expect(await store.gaps(DAY, DAY)).toEqual([]);
  });

  it('shares one number’s figure by each client’s messages, in micro-units that sum to Meta’s exactly', async () => {
    // Prepare: 3 messages Meta billed 100,001 micro-dollars in all; client 7 sent 1 and client 8 sent 2 of them
    const { ledger, deps, metaBooks, ledgerBooks, metaAmountOf } = reconciliation();
    metaBooks(ACME_NUMBER, 1, 100_001);
    metaBooks(ACME_NUMBER, 2, 0);
    ledgerBooks(7, ACME_NUMBER, 1, 33_334);
    ledgerBooks(8, ACME_NUMBER, 2, 66_667);
    // Act
    await reconcileCosts(deps, RUN_AT);
    // Assess: 100,001 × 1/3 and × 2/3, the one micro left to the larger remainder; each client's part kept by client
    const [acme] = await ledger.metaShares(7, DAY, DAY);
    const [beta] = await ledger.metaShares(8, DAY, DAY);
    expect(acme.shares).toEqual([{ day: DAY, market, category: 'marketing', volume: 1, micros: 33_334 }]);
    expect(beta.shares).toEqual([{ day: DAY, market, category: 'marketing', volume: 2, micros: 66_667 }]);
    expect(Math.round((await metaAmountOf(7)) * 1e6) + Math.round((await metaAmountOf(8)) * 1e6)).toBe(100_001);
  });

  it('reads a client’s parts by client: no WABA’s figures once its days are shared; days kept before §32 as they were', async () => {
    // Prepare: the 19th shared by the reconciliation; the 18th's figures kept as before §32, never shared
    const { ledger, deps, metaBooks, ledgerBooks, metaAmountOf } = reconciliation();
    metaBooks(ACME_NUMBER, 2, 25_000);
    ledgerBooks(7, ACME_NUMBER, 2, 50_000);
    await reconcileCosts(deps, RUN_AT);
    await ledger.putMetaCosts(
      SHARED,
      '2026-11-18',
      [{ day: '2026-11-18', phone_number: ACME_NUMBER, country: 'MX', category: 'marketing', volume: 1, micros: 7 }],
      RUN_AT,
    );
    ledger.shares.delete(`7|${SHARED}|2026-11-18`);
    const reads = vi.spyOn(ledger, 'metaCosts');
    const usageDeps = { ledger, directory: deps.directory, sends: memoryWorld().sends, priceLists: memoryWorld().priceLists };
    // Act
    const shared = await metaAmountOf(7);
    const readsOfShared = reads.mock.calls.length;
    const both = await usage(usageDeps, callerOf(7), { from: '2026-11-18', to: DAY, group_by: 'day' });
    // Assess: the 19th from the client's parts alone; the 18th from its own number's points, read up to the 18th only
    expect(shared).toBeCloseTo(0.05, 6);
    expect(readsOfShared).toBe(0);
    expect(both.data.find((row) => row.period === '2026-11-18')?.meta_amount).toBe(0.000007);
    expect(reads.mock.calls.map(([, from, to]) => [from, to])).toEqual([['2026-11-18', '2026-11-18']]);
  });

  it('keeps a number’s history with the client that sent, after the number moves to another client', async () => {
    // Prepare: client 7 sent from its number; then the directory gives that number to client 8
    const { deps, metaBooks, ledgerBooks, metaAmountOf } = reconciliation();
    metaBooks(ACME_NUMBER, 2, 25_000);
    ledgerBooks(7, ACME_NUMBER, 2, 50_000);
    const moved = {
      listChannels: async () => (await deps.directory.listChannels()).map((c) => (c.wa_id === ACME_NUMBER ? { ...c, client_id: 8 } : c)),
    };
    // Act
    await reconcileCosts({ ...deps, directory: moved }, RUN_AT);
    // Assess
    expect(await metaAmountOf(7)).toBeCloseTo(0.05, 6);
    expect(await metaAmountOf(8)).toBe(0);
  });

  it('gives a figure no client sent under to the number’s client, and one with no COST stays unknown in every part', () => {
    // Prepare: Meta's points of one day, and a ledger that has none of the first number's messages
    const points = [
      { day: DAY, phone_number: ACME_NUMBER, country: 'MX', category: 'marketing', volume: 2, micros: 50_000 },
      { day: DAY, phone_number: '5215550011', country: 'MX', category: 'utility', volume: 1 },
    ];
    const ledger = [7, 8].map((client_id) => ({
      client_id,
      entry: { day: DAY, did: '5215550011', market, category: 'utility', currency: 'USD', messages: 1, billable: 1, micros: 1 },
    }));
    // Act
    const shares = sharesOfDay(points, ledger, (digits) => (digits === ACME_NUMBER ? 7 : undefined));
    // Assess
    expect(shares.get(7)).toEqual([
      { day: DAY, market, category: 'marketing', volume: 2, micros: 50_000 },
      { day: DAY, market, category: 'utility', volume: 1 },
    ]);
    expect(shares.get(8)).toEqual([{ day: DAY, market, category: 'utility', volume: 0 }]);
  });

  it('divides by the largest remainder: integers that sum to the whole, also past 2^53', () => {
    // Prepare
    const thirds = new Map([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    const big = new Map([
      [1, 999_999],
      [2, 1],
    ]);
    // Act
    const small = largestRemainder(100, thirds);
    const large = largestRemainder(9_000_000_000_001, big);
    // Assess
    expect([...small.values()]).toEqual([34, 33, 33]);
    expect(large.get(1)! + large.get(2)!).toBe(9_000_000_000_001);
    expect(large.get(2)).toBe(9_000_000);
  });
});
