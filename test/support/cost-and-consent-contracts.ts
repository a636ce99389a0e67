import { describe, expect, it } from 'vitest';
import type { Suppression, SuppressionStore } from '#lib/domain/people/ports.ts';
import type { PausedJobs } from '#lib/domain/sends/dispatch/ports.ts';
import type { TemplatePauses } from '#lib/domain/templates/ports.ts';
import type { BudgetStore, CostGap, PriceLists, ReconciliationStore } from '#lib/domain/money/ports.ts';
import type { PriceList } from '#lib/domain/money/pricing/price-list.ts';
import { PAUSE_PERIODS_MS } from '#lib/domain/templates/pause-events.ts';

/**
 * The contracts of the stores issues 34 and 35 added (budgets, suppression lists, template pauses), the
 * reconciliation's (decisions §26) and price lists' (decisions §27), run on the
 * in-memory stores (test/unit/) and the DynamoDB adapters (test/http/), so the two cannot drift. Each test
 * names clients and templates of its own, so the shared table's other data never meets them.
 */
const unique = () => 600_000 + Math.floor(Math.random() * 1_000_000_000);

export function budgetStoreContract(name: string, makeStore: () => BudgetStore | Promise<BudgetStore>) {
  describe(`${name}: the budget store contract`, () => {
    it('sets, reads and removes a monthly budget', async () => {
      // Prepare
      const store = await makeStore();
      const client = unique();
      // Act
      await store.set(client, 5_000_000, '2026-11-01T00:00:00.000Z');
      const set = await store.get(client);
      await store.set(client, null, '2026-11-02T00:00:00.000Z');
      // Assess
      expect(set).toEqual({ monthly_micros: 5_000_000, updated_at: '2026-11-01T00:00:00.000Z' });
      expect(await store.get(client)).toBeNull();
    });

    it('keeps a budget’s currency (decisions §31), and none on a budget set without one', async () => {
      // Prepare
      const store = await makeStore();
      const [inEuro, before] = [unique(), unique()];
      // Act
      await store.set(inEuro, 5_000_000, '2026-11-01T00:00:00.000Z', 'EUR');
      await store.set(before, 5_000_000, '2026-11-01T00:00:00.000Z');
      // Assess
      expect(await store.get(inEuro)).toEqual({ monthly_micros: 5_000_000, updated_at: '2026-11-01T00:00:00.000Z', currency: 'EUR' });
      expect(await store.get(before)).not.toHaveProperty('currency');
    });

    it('reserves only within the limit, concurrent reservations included, and gives a release back', async () => {
      // Prepare: room for one of two sends of 600
      const store = await makeStore();
      const client = unique();
      // Act
      const both = await Promise.all([store.reserve(client, '2026-11', 600, 1_000), store.reserve(client, '2026-11', 600, 1_000)]);
      const afterBoth = (await store.month(client, '2026-11')).reserved;
      await store.release(client, '2026-11', 600);
      const unlimited = await store.reserve(client, '2026-11', 5_000);
      // Assess: without a limit a reservation is kept all the same (a budget set later counts it)
      expect(both.filter((total) => total !== null)).toEqual([600]);
      expect(afterBoth).toBe(600);
      expect(unlimited).toBe(5_000);
      expect(await store.month(client, '2026-11')).toEqual({ reserved: 5_000, released: 0, spent: 0 });
      expect((await store.month(client, '2026-12')).reserved).toBe(0);
    });
  });
}

export function suppressionStoreContract(name: string, makeStore: () => SuppressionStore | Promise<SuppressionStore>) {
  describe(`${name}: the suppression list contract`, () => {
    const entry = (phone: string, source: Suppression['source'] = 'api'): Suppression => ({
      phone,
      source,
      at: '2026-11-01T00:00:00.000Z',
    });

    it('keeps the first entry of a number, finds entries among many numbers, and removes one', async () => {
      // Prepare
      const store = await makeStore();
      const client = unique();
      const phones = Array.from({ length: 250 }, (_, i) => `52155${String(i).padStart(8, '0')}`);
      // Act
      const first = await store.add(client, entry(phones[3], 'inbound'));
      const again = await store.add(client, entry(phones[3], '131050'));
      await store.add(client, entry(phones[240]));
      const found = await store.get(client, phones);
      const removed = await store.remove(client, phones[240]);
      const removedAgain = await store.remove(client, phones[240]);
      // Assess
      expect([first, again]).toEqual([true, false]);
      expect([...found.keys()].sort()).toEqual([phones[3], phones[240]]);
      expect(found.get(phones[3])?.source).toBe('inbound');
      expect([removed, removedAgain]).toEqual([true, false]);
      expect([...(await store.get(client, phones)).keys()]).toEqual([phones[3]]);
      expect((await store.get(client + 1, phones)).size).toBe(0);
    });

    it('keeps entries by BSUID (`U#<user_id>`) beside entries by number, an entry by number naming its BSUID', async () => {
      // Prepare
      const store = await makeStore();
      const client = unique();
      // Act
      const byId = await store.add(client, { user_id: 'MX.77', source: 'meta_preferences', at: '2026-11-01T00:00:00.000Z' });
      await store.add(client, { phone: '5215500000077', user_id: 'MX.77', source: 'inbound', at: '2026-11-01T00:00:00.000Z' });
      const found = await store.get(client, ['U#MX.77', '5215500000077', 'U#MX.78']);
      const removed = await store.remove(client, 'U#MX.77');
      // Assess
      expect(byId).toBe(true);
      expect(found.get('U#MX.77')).toMatchObject({ user_id: 'MX.77', source: 'meta_preferences' });
      expect(found.get('5215500000077')).toMatchObject({ phone: '5215500000077', user_id: 'MX.77' });
      expect(found.size).toBe(2);
      expect(removed).toBe(true);
      expect((await store.list(client, { offset: 0, size: 10 })).total).toBe(1);
    });

    it('lists a client’s entries in pages with the total', async () => {
      // Prepare
      const store = await makeStore();
      const client = unique();
      for (const i of [1, 2, 3]) await store.add(client, entry(`5215500000${i}`));
      // Act
      const page = await store.list(client, { offset: 1, size: 1 });
      // Assess
      expect(page.total).toBe(3);
      expect(page.entries).toHaveLength(1);
    });
  });
}

export function templatePausesContract(name: string, makeStore: () => TemplatePauses | Promise<TemplatePauses>) {
  describe(`${name}: the template pauses contract`, () => {
    const at = Date.parse('2026-11-01T00:00:00.000Z');
    const event = (kind: 'paused' | 'resumed' | 'disabled', atMs: number) => ({ kind: 'event' as const, event: kind, at_ms: atMs });

    it('pauses for Meta’s period, never moves a pause in force, lengthens the next, and resumes', async () => {
      // Prepare
      const store = await makeStore();
      const template = String(unique());
      // Act
      const first = await store.pause('w-contract', template, at);
      const inForce = await store.pause('w-contract', template, at + 60_000);
      const resumed = await store.notified('w-contract', template, event('resumed', at + 120_000));
      const shown = await store.get('w-contract', template);
      const second = await store.pause('w-contract', template, at + 3_600_000);
      // Assess
      expect(first).toMatchObject({ state: 'paused', since_ms: at, until_ms: at + PAUSE_PERIODS_MS[0], pauses: 1 });
      expect(inForce).toEqual(first);
      expect(resumed).toBeNull();
      expect(shown).toBeNull();
      expect(second).toMatchObject({ state: 'paused', until_ms: at + 3_600_000 + PAUSE_PERIODS_MS[1], pauses: 2 });
    });

    it('ignores a PAUSED older than the resume that followed it, and a resume older than the pause in force', async () => {
      // Prepare: Meta paused at +10 s and let go at +20 s; the resume arrives first
      const store = await makeStore();
      const [late, stale] = [String(unique()), String(unique())];
      // Act
      await store.notified('w-contract', late, event('resumed', at + 20_000));
      const latePause = await store.notified('w-contract', late, event('paused', at + 10_000));
      await store.notified('w-contract', stale, event('paused', at + 30_000));
      const staleResume = await store.notified('w-contract', stale, event('resumed', at + 20_000));
      // Assess
      expect(latePause).toBeNull();
      expect(await store.get('w-contract', late)).toBeNull();
      expect(staleResume).toMatchObject({ state: 'paused', since_ms: at + 30_000 });
      expect(await store.get('w-contract', stale)).toMatchObject({ state: 'paused', since_ms: at + 30_000 });
    });

    it('at the same second takes the resume after the pause, whichever arrives first, and a repeat changes nothing', async () => {
      // Prepare
      const store = await makeStore();
      const [pauseFirst, resumeFirst] = [String(unique()), String(unique())];
      // Act
      await store.notified('w-contract', pauseFirst, event('paused', at));
      await store.notified('w-contract', pauseFirst, event('resumed', at));
      await store.notified('w-contract', pauseFirst, event('paused', at));
      await store.notified('w-contract', resumeFirst, event('resumed', at));
      await store.notified('w-contract', resumeFirst, event('paused', at));
      // Assess
      expect(await store.get('w-contract', pauseFirst)).toBeNull();
      expect(await store.get('w-contract', resumeFirst)).toBeNull();
    });

    it('ends as Meta’s times say when a pause and a resume race', async () => {
      // Prepare: each pair written at once, in both orders
      const store = await makeStore();
      const templates = Array.from({ length: 6 }, () => String(unique()));
      // Act
      await Promise.all(
        templates.map((template, i) =>
          i % 2 === 0
            ? Promise.all([
                store.notified('w-contract', template, event('paused', at + 1_000)),
                store.notified('w-contract', template, event('resumed', at + 2_000)),
              ])
            : Promise.all([
                store.notified('w-contract', template, event('resumed', at + 1_000)),
                store.notified('w-contract', template, event('paused', at + 2_000)),
              ]),
        ),
      );
      const after = await Promise.all(templates.map((template) => store.get('w-contract', template)));
      // Assess
      expect(after.map((pause) => pause?.state ?? 'active')).toEqual(['active', 'paused', 'active', 'paused', 'active', 'paused']);
    });

    it('ends a pause whose period is over, and keeps one that began since', async () => {
      // Prepare
      const store = await makeStore();
      const template = String(unique());
      await store.pause('w-contract', template, at);
      // Act: too early, then after the period
      await store.resume('w-contract', template, at + 60_000);
      const early = await store.get('w-contract', template);
      await store.resume('w-contract', template, at + PAUSE_PERIODS_MS[0]);
      const over = await store.get('w-contract', template);
      // Assess
      expect(early).toMatchObject({ state: 'paused' });
      expect(over).toBeNull();
    });

    it('keeps a disabled template disabled: a pause or a resume does not undo it', async () => {
      // Prepare
      const store = await makeStore();
      const template = String(unique());
      // Act
      await store.notified('w-contract', template, event('disabled', 1_000));
      const paused = await store.pause('w-contract', template, 2_000);
      const resumed = await store.notified('w-contract', template, event('resumed', 3_000));
      // Assess
      expect(paused.state).toBe('disabled');
      expect(resumed).toMatchObject({ state: 'disabled' });
      expect(await store.get('w-contract', template)).toMatchObject({ state: 'disabled' });
    });
  });
}

export function pausedJobsContract(name: string, makeStore: () => PausedJobs | Promise<PausedJobs>) {
  describe(`${name}: the paused jobs contract`, () => {
    it('keeps each job once (its newest receipt), lists a page, and forgets', async () => {
      // Prepare
      const store = await makeStore();
      const template = String(unique());
      const job = (n: number, receipt: string) => ({ send_id: `s-${template}`, job: n, receipt, due_ms: 1_000 * n });
      // Act
      await store.keep('w-contract', template, job(1, 'r-1'));
      await store.keep('w-contract', template, job(1, 'r-1-again'));
      await store.keep('w-contract', template, job(2, 'r-2'));
      await store.keep('w-contract', template, job(3, 'r-3'));
      const page = await store.waiting('w-contract', template, 2);
      const all = await store.waiting('w-contract', template, 10);
      await store.forget('w-contract', template, all.slice(0, 2));
      const left = await store.waiting('w-contract', template, 10);
      // Assess
      expect(page).toHaveLength(2);
      expect(all.map((j) => [j.job, j.receipt]).sort()).toEqual([
        [1, 'r-1-again'],
        [2, 'r-2'],
        [3, 'r-3'],
      ]);
      expect(left).toEqual([all[2]]);
      expect(await store.waiting('w-contract', String(unique()), 10)).toEqual([]);
    });
  });
}

export function reconciliationStoreContract(name: string, makeStore: () => ReconciliationStore | Promise<ReconciliationStore>) {
  describe(`${name}: the reconciliation store contract`, () => {
    /** Days of a year of this test's own (the table's gaps are every client's, read by day). */
    const year = 1000 + (unique() % 900);
    const gap = (clientId: number, day: string, market: string): CostGap => ({
      client_id: clientId,
      day,
      market,
      currency: 'USD',
      ledger: 1.5,
      meta: 1.6,
      share: 0.0625,
    });

    it('keeps a WABA’s unread days until told none is left', async () => {
      // Prepare
      const store = await makeStore();
      const waba = `w-unread-${unique()}`;
      // Act
      const before = await store.failedDays(waba);
      await store.setFailedDays(waba, [`${year}-03-01`, `${year}-03-02`]);
      const kept = await store.failedDays(waba);
      await store.setFailedDays(waba, []);
      // Assess
      expect(before).toEqual([]);
      expect(kept).toEqual([`${year}-03-01`, `${year}-03-02`]);
      expect(await store.failedDays(waba)).toEqual([]);
    });

    it('answers the gaps of days from–to by day then client, a client’s day replaced whole', async () => {
      // Prepare: two clients' gaps over three days; client b's 2nd is found again with one market
      const store = await makeStore();
      const [a, b] = [unique(), unique()].sort((x, y) => x - y);
      const day = (n: number) => `${year}-05-0${n}`;
      await store.putGaps(b, day(2), [gap(b, day(2), 'India'), gap(b, day(2), 'Mexico')]);
      await store.putGaps(a, day(2), [gap(a, day(2), 'Brazil')]);
      await store.putGaps(a, day(1), [gap(a, day(1), 'Brazil')]);
      await store.putGaps(a, day(3), [gap(a, day(3), 'Brazil')]);
      // Act
      await store.putGaps(b, day(2), [gap(b, day(2), 'Mexico')]);
      await store.putGaps(a, day(3), []);
      const found = await store.gaps(day(2), day(3));
      // Assess
      expect(found).toEqual([gap(a, day(2), 'Brazil'), gap(b, day(2), 'Mexico')]);
      expect(await store.gaps(day(1), day(1))).toEqual([gap(a, day(1), 'Brazil')]);
    });
  });
}

export function priceListContract(name: string, makeStore: () => PriceLists | Promise<PriceLists>) {
  describe(`${name}: the price list contract`, () => {
    const list = (client: number, effective_from: string, created_at: string, extra: Partial<PriceList> = {}): PriceList => ({
      client_id: client,
      effective_from,
      currency: 'USD',
      created_at,
      ...extra,
    });

    it('keeps a client’s lists, oldest first, each as put (markup, fixed prices or both)', async () => {
      // Prepare
      const store = await makeStore();
      const client = unique();
      const later = list(client, '2026-12-01', '2026-11-20T10:00:00.000Z', {
        currency: 'MXN',
        prices: { Mexico: { marketing: 0.5, utility: 0.1 }, Brazil: { authentication: 0.25 } },
      });
      const earlier = list(client, '2026-11-20', '2026-11-20T09:00:00.000Z', { markup_percent: 12.5 });
      const both = list(client, '2027-01-01', '2026-11-20T11:00:00.000Z', { markup_percent: 20, prices: { India: { marketing: 0.011 } } });
      // Act
      const puts = [await store.put(later), await store.put(earlier), await store.put(both)];
      // Assess
      expect(puts).toEqual([true, true, true]);
      expect(await store.lists(client)).toEqual([earlier, later, both]);
      expect(await store.lists(client + 1)).toEqual([]);
    });

    it('replaces a list not yet in force, and refuses to replace one in force (its date today or before)', async () => {
      // Prepare: a list from 2026-12-01 put on 2026-11-20, and one from 2026-11-25
      const store = await makeStore();
      const client = unique();
      await store.put(list(client, '2026-12-01', '2026-11-20T10:00:00.000Z', { markup_percent: 10 }));
      await store.put(list(client, '2026-11-25', '2026-11-20T10:00:00.000Z', { markup_percent: 5 }));
      // Act
      const upcoming = await store.put(list(client, '2026-12-01', '2026-11-30T23:59:59.000Z', { markup_percent: 15 }));
      const onItsDay = await store.put(list(client, '2026-11-25', '2026-11-25T00:00:00.000Z', { markup_percent: 50 }));
      const after = await store.put(list(client, '2026-11-25', '2026-11-26T08:00:00.000Z', { markup_percent: 50 }));
      // Assess
      expect([upcoming, onItsDay, after]).toEqual([true, false, false]);
      expect((await store.lists(client)).map((l) => [l.effective_from, l.markup_percent])).toEqual([
        ['2026-11-25', 5],
        ['2026-12-01', 15],
      ]);
    });

    it('lets exactly one of two concurrent puts of a list in force today through', async () => {
      // Prepare
      const store = await makeStore();
      const client = unique();
      // Act
      const both = await Promise.all([
        store.put(list(client, '2026-11-25', '2026-11-25T10:00:01.000Z', { markup_percent: 2 })),
        store.put(list(client, '2026-11-25', '2026-11-25T10:00:02.000Z', { markup_percent: 3 })),
      ]);
      // Assess
      expect(both.filter(Boolean)).toHaveLength(1);
      expect((await store.lists(client)).map((l) => l.markup_percent)).toEqual([both[0] ? 2 : 3]);
    });
  });
}
