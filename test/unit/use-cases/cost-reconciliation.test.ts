import { describe, expect, it } from 'vitest';
import { silentLog } from '#lib/domain/shared/log.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { reconcileCosts } from '#lib/domain/money/reconcile-costs.ts';
import { Forbidden, InvalidRequest } from '#lib/domain/shared/errors.ts';
import { usage } from '#lib/domain/money/usage.ts';
import { usageGaps } from '#lib/domain/money/usage-gaps.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { MemoryReconciliationStore } from '../../support/memory/money/reconciliation-store.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/**
 * The daily reconciliation per client (decisions §26), on the in-memory stores and the Graph emulator in process.
 * In the demo fixture clients 7 (number 5215550001) and 8 (number 5215550011) share WABA 100200300.
 */
const SHARED = '100200300';
const ACME_NUMBER = '5215550001';
const BETA_NUMBER = '5215550011';
/** A run on the 20th reads the 17th, 18th and 19th. */
const RUN_AT = '2026-11-20T06:00:00.000Z';
const market = rateCards.marketOfRegion('MX', '2026-11-19');

function reconciliation() {
  const world = memoryWorld();
  const ledger = new MemoryCostLedger();
  const store = new MemoryReconciliationStore();
  const deps = { ledger, reconciliation: store, directory: world.directory, upstream: world.upstream, log: silentLog };
  /** A message Meta delivered from one of the shared WABA's numbers, in Meta's books. */
  const metaBooks = (phone: string, day: string, micros: number) =>
    world.emulator.pricing.delivered.push({
      waba_id: SHARED,
      phone_number: phone,
      day,
      country: 'MX',
      category: 'marketing',
      type: 'regular',
      micros,
      currency: 'USD',
    });
  /** The same message in the service's ledger, charged to its client. */
  const ledgerBooks = (clientId: number, did: string, day: string, micros: number) =>
    ledger.charge(SHARED, clientId, { day, did, market, category: 'marketing', currency: 'USD', messages: 1, billable: 1, micros });
  const usageDeps = { ledger, directory: world.directory, sends: world.sends, priceLists: world.priceLists };
  const usageOf = async (clientId: number, day: string) =>
    (await usage(usageDeps, callerOf(clientId), { from: day, to: day, group_by: 'day' })).data;
  return { world, ledger, store, deps, metaBooks, ledgerBooks, usageOf };
}

const unixOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
/** The emulator's fault on one WABA's read of one day (the Graph client encodes the parentheses). */
const failingRead = (waba: string, day: string) => ({ path: `/${waba}`, method: 'GET', query: `start%28${unixOf(day)}%29`, status: 503 });

describe('the daily reconciliation per client (decisions §26, in memory)', () => {
  it('reads the last 3 days again on every run, by sending number, so a late status is counted', async () => {
    // Prepare: a message of the 18th, then a late one of the same day known only after the first run
    const { world, ledger, deps, metaBooks } = reconciliation();
    metaBooks(ACME_NUMBER, '2026-11-18', 50_000);
    await reconcileCosts(deps, RUN_AT);
    metaBooks(ACME_NUMBER, '2026-11-18', 50_000);
    world.emulator.calls.length = 0;
    // Act: the next day's run
    const result = await reconcileCosts(deps, '2026-11-21T06:00:00.000Z');
    // Assess: the 18th, 19th and 20th read again, with the PHONE dimension; the 18th now holds both messages
    const reads = world.emulator.calls.filter((c) => c.path.endsWith(`/${SHARED}`)).map((c) => c.query.fields);
    expect(reads).toHaveLength(3);
    for (const day of ['2026-11-18', '2026-11-19', '2026-11-20'])
      expect(reads.some((f) => f.includes(`.start(${unixOf(day)})`))).toBe(true);
    expect(reads.every((f) => f.includes('.dimensions(["PHONE","COUNTRY","PRICING_CATEGORY","PRICING_TYPE"])'))).toBe(true);
    expect(result.days).toEqual(['2026-11-18', '2026-11-19', '2026-11-20']);
    expect(await ledger.metaCosts([SHARED], '2026-11-18', '2026-11-18')).toEqual([
      { day: '2026-11-18', phone_number: ACME_NUMBER, country: 'MX', category: 'marketing', volume: 2, micros: 100_000 },
    ]);
  });

  it('reads a day whose read failed on the next run, until it is read', async () => {
    // Prepare: Meta does not answer for the shared WABA's 17th on the first run
    const { world, ledger, store, deps, metaBooks, ledgerBooks } = reconciliation();
    metaBooks(BETA_NUMBER, '2026-11-17', 80_000);
    ledgerBooks(8, BETA_NUMBER, '2026-11-17', 40_000);
    world.emulator.faults.add(failingRead(SHARED, '2026-11-17'));
    const first = await reconcileCosts(deps, RUN_AT);
    const unreadAfterFirst = await store.failedDays(SHARED);
    world.emulator.faults.clear();
    // Act: a run five days later, when the 17th is no longer among the last 3 days
    const second = await reconcileCosts(deps, '2026-11-25T06:00:00.000Z');
    // Assess: the 17th was left unread, compared with no one, then read, compared and forgotten as failed
    expect(first.failed).toBe(1);
    expect(unreadAfterFirst).toEqual(['2026-11-17']);
    expect(first.gaps).toEqual([]);
    expect(second.days).toContain('2026-11-17');
    expect(await store.failedDays(SHARED)).toEqual([]);
    expect(await ledger.metaCosts([SHARED], '2026-11-17', '2026-11-17')).toHaveLength(1);
    expect(await store.gaps('2026-11-17', '2026-11-17')).toEqual([
      { client_id: 8, day: '2026-11-17', market, currency: 'USD', ledger: 0.04, meta: 0.08, share: 0.5 },
    ]);
  });

  it('gives up a failed day older than 30 days', async () => {
    // Prepare: a day an old run could not read
    const { world, store, deps } = reconciliation();
    await store.setFailedDays(SHARED, ['2026-10-01']);
    // Act
    const result = await reconcileCosts(deps, RUN_AT);
    // Assess
    expect(result.days).not.toContain('2026-10-01');
    expect(world.emulator.calls.some((c) => c.query.fields?.includes(`.start(${unixOf('2026-10-01')})`))).toBe(false);
    expect(await store.failedDays(SHARED)).toEqual([]);
  });

  it('splits a shared WABA by client: each sees and is compared on its own numbers only', async () => {
    // Prepare: client 7's two messages agree with the ledger; client 8's one message is charged at half Meta's cost
    const { store, deps, metaBooks, ledgerBooks, usageOf } = reconciliation();
    const day = '2026-11-19';
    for (let i = 0; i < 2; i++) {
      metaBooks(ACME_NUMBER, day, 25_000);
      ledgerBooks(7, ACME_NUMBER, day, 25_000);
    }
    metaBooks(BETA_NUMBER, day, 100_000);
    ledgerBooks(8, BETA_NUMBER, day, 50_000);
    const gaps: unknown[] = [];
    // Act
    const result = await reconcileCosts({ ...deps, onGap: (gap) => gaps.push(gap) }, RUN_AT);
    // Assess: one gap, client 8's, told to the worker and kept; each client's meta_amount is its own numbers'
    const beta = { client_id: 8, day, market, currency: 'USD', ledger: 0.05, meta: 0.1, share: 0.5 };
    expect(result.gaps).toEqual([beta]);
    expect(gaps).toEqual([beta]);
    expect(await store.gaps('2026-11-01', '2026-11-30')).toEqual([beta]);
    expect(await usageOf(7, day)).toEqual([
      { client_id: 7, from: day, to: day, period: day, messages: 2, billable: 2, amount: 0.05, currency: 'USD', meta_amount: 0.05 },
    ]);
    expect(await usageOf(8, day)).toEqual([
      { client_id: 8, from: day, to: day, period: day, messages: 1, billable: 1, amount: 0.05, currency: 'USD', meta_amount: 0.1 },
    ]);
  });

  it('a re-read day replaces its gaps: none left once the figures agree', async () => {
    // Prepare: a gap of client 8 on the 19th, then the late charge that closes it
    const { store, deps, metaBooks, ledgerBooks } = reconciliation();
    metaBooks(BETA_NUMBER, '2026-11-19', 100_000);
    ledgerBooks(8, BETA_NUMBER, '2026-11-19', 50_000);
    await reconcileCosts(deps, RUN_AT);
    const before = await store.gaps('2026-11-19', '2026-11-19');
    ledgerBooks(8, BETA_NUMBER, '2026-11-19', 50_000);
    // Act
    await reconcileCosts(deps, '2026-11-21T06:00:00.000Z');
    // Assess
    expect(before).toHaveLength(1);
    expect(await store.gaps('2026-11-19', '2026-11-19')).toEqual([]);
  });

  it('keeps a missing COST unknown: no meta_amount (never 0) and no gap', async () => {
    // Prepare: the shared WABA is billed on a partner's credit line, so Meta's points carry no cost
    const { world, ledger, deps, metaBooks, ledgerBooks, usageOf } = reconciliation();
    world.emulator.pricing.creditLines.add(SHARED);
    metaBooks(ACME_NUMBER, '2026-11-19', 25_000);
    ledgerBooks(7, ACME_NUMBER, '2026-11-19', 25_000);
    // Act
    const result = await reconcileCosts(deps, RUN_AT);
    const rows = await usageOf(7, '2026-11-19');
    // Assess
    const [kept] = await ledger.metaCosts([SHARED], '2026-11-19', '2026-11-19');
    expect(kept).toMatchObject({ phone_number: ACME_NUMBER, volume: 1 });
    expect(kept).not.toHaveProperty('micros');
    expect(result.gaps).toEqual([]);
    expect(rows).toEqual([
      {
        client_id: 7,
        from: '2026-11-19',
        to: '2026-11-19',
        period: '2026-11-19',
        messages: 1,
        billable: 1,
        amount: 0.025,
        currency: 'USD',
      },
    ]);
  });

  it('answers the gaps of a period to BSP_CN only, with /v1/usage’s date rules', async () => {
    // Prepare: client 8's gap on the 19th
    const { store, deps, metaBooks, ledgerBooks } = reconciliation();
    metaBooks(BETA_NUMBER, '2026-11-19', 100_000);
    ledgerBooks(8, BETA_NUMBER, '2026-11-19', 50_000);
    await reconcileCosts(deps, RUN_AT);
    const bsp = callerOf(7, { isBsp: true, permissions: ['BSP_CN'] });
    const gapsOf = (caller: typeof bsp, from: string, to: string) => usageGaps({ reconciliation: store }, caller, { from, to });
    // Act
    const answer = await gapsOf(bsp, '2026-11-01', '2026-11-30');
    // Assess
    expect(answer).toEqual({
      data: [{ client_id: 8, day: '2026-11-19', market, currency: 'USD', ledger: 0.05, meta: 0.1, share: 0.5 }],
      from: '2026-11-01',
      to: '2026-11-30',
    });
    await expect(gapsOf(callerOf(8), '2026-11-01', '2026-11-30')).rejects.toBeInstanceOf(Forbidden);
    for (const [from, to] of [
      ['2026-02-30', '2026-03-01'],
      ['2026-11-30', '2026-11-01'],
      ['2025-01-01', '2026-01-02'],
    ])
      await expect(gapsOf(bsp, from, to)).rejects.toBeInstanceOf(InvalidRequest);
  });
});

describe('a failure is its WABA-day’s alone (issue 51, in memory)', () => {
  /** A WABA of the fixture beside the shared one: its days go on whatever the shared one's do. */
  const OTHER = '100200400';

  it('a day whose figures cannot be kept is read on the next run; the other days and WABAs go on', async () => {
    // Prepare: the shared WABA's 18th cannot be kept (an item too large, say) on the first run only
    const { ledger, store, deps, metaBooks, ledgerBooks } = reconciliation();
    metaBooks(BETA_NUMBER, '2026-11-18', 80_000);
    ledgerBooks(8, BETA_NUMBER, '2026-11-18', 40_000);
    metaBooks(BETA_NUMBER, '2026-11-19', 80_000);
    ledgerBooks(8, BETA_NUMBER, '2026-11-19', 40_000);
    const put = ledger.putMetaCosts.bind(ledger);
    let failing = true;
    ledger.putMetaCosts = async (waba, day, entries, readAt) => {
      if (failing && waba === SHARED && day === '2026-11-18') throw new Error('Item size has exceeded the maximum allowed size');
      return put(waba, day, entries, readAt);
    };
    // Act
    const first = await reconcileCosts(deps, RUN_AT);
    const unreadAfterFirst = await store.failedDays(SHARED);
    failing = false;
    const second = await reconcileCosts(deps, '2026-11-25T06:00:00.000Z');
    // Assess: the 18th failed alone, its gap waited for its read; the 17th and 19th, and the other WABA, were kept
    expect(first.failed).toBe(1);
    expect(unreadAfterFirst).toEqual(['2026-11-18']);
    expect(first.gaps.map((g) => g.day)).toEqual(['2026-11-19']);
    for (const day of ['2026-11-17', '2026-11-19']) expect(ledger.meta.has(`${SHARED}|${day}`)).toBe(true);
    for (const day of ['2026-11-17', '2026-11-18', '2026-11-19']) expect(ledger.meta.has(`${OTHER}|${day}`)).toBe(true);
    expect(second.days).toContain('2026-11-18');
    expect(await store.failedDays(SHARED)).toEqual([]);
    expect((await store.gaps('2026-11-18', '2026-11-18')).map((g) => g.client_id)).toEqual([8]);
  });

  it('a client’s day whose gaps cannot be kept leaves that day for the next run; the other clients’ are kept', async () => {
    // Prepare: both clients of the shared WABA have a gap on the 19th; client 8's cannot be kept on the first run
    const { store, deps, metaBooks, ledgerBooks } = reconciliation();
    metaBooks(ACME_NUMBER, '2026-11-19', 100_000);
    ledgerBooks(7, ACME_NUMBER, '2026-11-19', 50_000);
    metaBooks(BETA_NUMBER, '2026-11-19', 100_000);
    ledgerBooks(8, BETA_NUMBER, '2026-11-19', 50_000);
    const putGaps = store.putGaps.bind(store);
    let failing = true;
    store.putGaps = async (clientId, day, gaps) => {
      if (failing && clientId === 8 && day === '2026-11-19') throw new Error('throttled');
      return putGaps(clientId, day, gaps);
    };
    // Act
    const first = await reconcileCosts(deps, RUN_AT);
    const unreadAfterFirst = await store.failedDays(SHARED);
    failing = false;
    await reconcileCosts(deps, '2026-11-25T06:00:00.000Z');
    // Assess
    expect(first.gaps.map((g) => g.client_id)).toEqual([7]);
    expect(first.failed).toBe(1);
    expect(unreadAfterFirst).toEqual(['2026-11-19']);
    expect((await store.gaps('2026-11-19', '2026-11-19')).map((g) => g.client_id)).toEqual([7, 8]);
    expect(await store.failedDays(SHARED)).toEqual([]);
  });

  it('a WABA whose failed days cannot be read waits for the next run; the others are read and kept', async () => {
    // Prepare: the shared WABA's list of failed days cannot be read
    const { ledger, store, deps } = reconciliation();
    await store.setFailedDays(SHARED, ['2026-11-10']);
    const failedDays = store.failedDays.bind(store);
    store.failedDays = async (wabaId) => {
      if (wabaId === SHARED) throw new Error('throttled');
      return failedDays(wabaId);
    };
    // Act
    const result = await reconcileCosts(deps, RUN_AT);
    // Assess: its three days unread this run, its list left as it was; the other WABA's days kept
    expect(result.failed).toBe(3);
    expect(store.unread.get(SHARED)).toEqual(['2026-11-10']);
    expect([...ledger.meta.keys()].some((key) => key.startsWith(`${SHARED}|`))).toBe(false);
    expect(ledger.meta.has(`${OTHER}|2026-11-19`)).toBe(true);
  });

  it('reads every page of a day Meta answers in pages', async () => {
    // Prepare: client 8's day in three markets, answered one data point a page
    const { world, ledger, deps, metaBooks } = reconciliation();
    metaBooks(BETA_NUMBER, '2026-11-19', 10_000);
    for (const country of ['BR', 'AR'])
      world.emulator.pricing.delivered.push({ ...world.emulator.pricing.delivered[0], country, micros: 20_000 });
    world.emulator.pricing.pageSizes.set(SHARED, 1);
    // Act
    await reconcileCosts(deps, RUN_AT);
    // Assess
    const kept = await ledger.metaCosts([SHARED], '2026-11-19', '2026-11-19');
    expect(kept.map((e) => [e.country, e.micros]).sort()).toEqual([
      ['AR', 20_000],
      ['BR', 20_000],
      ['MX', 10_000],
    ]);
  });

  it('compares a client whose WABAs bill in two currencies in each apart: a USD gap and an opposite EUR one never cancel', async () => {
    // Prepare: client 7 sends to Mexico from WABA 100200300 (USD), charged 10 % under Meta, and from 100200301 (EUR,
    // number 5215550002), charged 10 % over; summed blindly the two would agree
    const { world, ledger, store, deps, metaBooks, ledgerBooks } = reconciliation();
    const day = '2026-11-19';
    const EURO_WABA = '100200301';
    const EURO_NUMBER = '5215550002';
    world.emulator.model.wabas.get(EURO_WABA)!.currency = 'EUR';
    metaBooks(ACME_NUMBER, day, 110_000);
    ledgerBooks(7, ACME_NUMBER, day, 100_000);
    world.emulator.pricing.delivered.push({
      waba_id: EURO_WABA,
      phone_number: EURO_NUMBER,
      day,
      country: 'MX',
      category: 'marketing',
      type: 'regular',
      micros: 90_000,
      currency: 'EUR',
    });
    ledger.charge(EURO_WABA, 7, {
      day,
      did: EURO_NUMBER,
      market,
      category: 'marketing',
      currency: 'EUR',
      messages: 1,
      billable: 1,
      micros: 100_000,
    });
    // Act
    await reconcileCosts(deps, RUN_AT);
    // Assess
    expect(await store.gaps(day, day)).toEqual([
      { client_id: 7, day, market, currency: 'USD', ledger: 0.1, meta: 0.11, share: expect.closeTo(0.0909, 4) },
      { client_id: 7, day, market, currency: 'EUR', ledger: 0.1, meta: 0.09, share: expect.closeTo(0.1, 4) },
    ]);
  });
});
