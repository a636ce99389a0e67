import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Forbidden, InvalidRequest, NotFound } from '#lib/domain/shared/errors.ts';
import type { LedgerEntry } from '#lib/domain/money/ports.ts';
import { canonicalLines, chargeLines } from '#lib/domain/money/statements/lines.ts';
import { closeMonths } from '#lib/domain/money/statements/close-months.ts';
import { lastMonthToClose } from '#lib/domain/money/statements/months.ts';
import { statement } from '#lib/domain/money/statements/statement.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { statementPdf } from '#lib/http/statement-pdf.ts';
import { statementCsv } from '#lib/http/statement-render.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { MemoryStatementStore } from '../../support/memory/money/statement-store.ts';
import { bspCaller, callerOf, memoryWorld } from '../../support/memory/world.ts';
import { pdfText } from '../../support/pdf-text.ts';

/**
 * Monthly statements (decisions §27, §30) on the in-memory stores, on a clock of the test's own; months close when
 * the test runs the close job (`close`). Client 7 of the demo fixture bills WABA 100200300; client 8 shares it.
 */
const WABA = '100200300';
const DID = '5215550001';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const at = (iso: string) => () => Date.parse(iso);
const ISSUER = { name: 'Acme Messaging Ltd', address: '1 Quay Street, Dublin D02, Ireland' };

function books(now = '2026-11-20T12:00:00Z', lists: { effective_from: string; currency: string }[] = []) {
  const world = memoryWorld();
  const ledger = new MemoryCostLedger();
  const statements = new MemoryStatementStore();
  const clock = { now: at(now) };
  const deps = {
    ledger,
    directory: world.directory,
    statements,
    sha256,
    priceLists: { lists: async () => lists },
    issuer: ISSUER,
    log: silentLog,
    now: () => clock.now(),
  };
  /**
   * `billable` messages at `unit` micro-units each (and `free` more at 0) on a day, Mexico marketing unless said,
   * applied on time, or at `appliedAt` (ISO).
   */
  const charge = (day: string, billable: number, unit: number, more: Partial<LedgerEntry> & { free?: number; appliedAt?: string } = {}) => {
    const { free = 0, appliedAt, ...rest } = more;
    ledger.charge(
      WABA,
      7,
      {
        day,
        did: DID,
        market: 'Mexico',
        category: 'marketing',
        currency: 'USD',
        messages: billable + free,
        billable,
        micros: billable * unit,
        ...rest,
      },
      appliedAt === undefined ? undefined : Date.parse(appliedAt),
    );
  };
  const read = (month: string, caller = callerOf(7)) => statement(deps, caller, { client_id: 7, month });
  /** The close job's run at an instant, which becomes the clock's time. */
  const close = (iso: string) => {
    clock.now = at(iso);
    return closeMonths(deps, Date.parse(iso));
  };
  return { deps, ledger, statements, clock, charge, read, close };
}

describe('a month’s lines (decisions §27)', () => {
  it('makes one line of the days with equal unit prices, another for each other price, and free messages at 0', async () => {
    // Prepare: two days at 0.0436, a day at 0.0400 (another tier), a day of free messages, and a utility day
    const { charge, read } = books();
    charge('2026-10-01', 10, 43_600);
    charge('2026-10-02', 5, 43_600, { did: '5215550002' });
    charge('2026-10-02', 5, 43_600);
    charge('2026-10-15', 4, 40_000);
    charge('2026-10-20', 0, 0, { free: 3 });
    charge('2026-10-20', 2, 8_000, { category: 'utility' });
    // Act
    const body = await read('2026-10');
    // Assess: one line a market × category × unit price; totals are their sums
    expect(body.statements).toHaveLength(1);
    const [usd] = body.statements;
    expect(usd.currency).toBe('USD');
    expect(usd.lines.map((l) => [l.market, l.category, l.unit_price, l.messages, l.billable, l.amount])).toEqual([
      ['Mexico', 'marketing', 0, 3, 0, 0],
      ['Mexico', 'marketing', 40_000, 4, 4, 0.16],
      ['Mexico', 'marketing', 43_600, 20, 20, 0.872],
      ['Mexico', 'utility', 8_000, 2, 2, 0.016],
    ]);
    expect(usd.lines.every((l) => l.kind === 'charge')).toBe(true);
    expect(usd.totals).toEqual({ messages: 29, billable: 26, amount: 1.048 });
    expect(body.card_versions).toEqual(['meta-2026-10-01-USD']);
  });

  it('answers one statement a currency the month was charged in', async () => {
    // Prepare
    const { charge, read } = books();
    charge('2026-10-05', 2, 10_000);
    charge('2026-10-05', 3, 20_000, { currency: 'EUR' });
    // Act
    const body = await read('2026-10');
    // Assess
    expect(body.statements.map((s) => [s.currency, s.totals.amount])).toEqual([
      ['EUR', 0.06],
      ['USD', 0.02],
    ]);
    expect(body.card_versions).toEqual(['meta-2026-10-01-USD']);
  });

  it('hashes the lines as shown: the same lines give the same sha256, whatever order the ledger gave them in', async () => {
    // Prepare: the same charges written in two orders
    const one = books();
    const two = books();
    const days = ['2026-10-03', '2026-10-09', '2026-10-21'];
    for (const [i, day] of days.entries()) one.charge(day, i + 1, 43_600);
    for (const day of [...days].reverse()) two.charge(day, days.indexOf(day) + 1, 43_600);
    // Act
    const [a, b] = [await one.read('2026-10'), await two.read('2026-10')];
    // Assess: one hash, and it is the sha256 of the canonical JSON of the lines shown
    expect(a.lines_sha256).toBe(b.lines_sha256);
    expect(a.lines_sha256).toBe(sha256(canonicalLines(chargeLines(one.ledger.entries.map((e) => e.entry)))));
    expect(a.lines_sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('months that close on a schedule (decisions §30)', () => {
  it('closes a month from 00:00 UTC on the 3rd of the next month, and not before', () => {
    // Prepare / Act / Assess
    expect(lastMonthToClose(Date.parse('2026-11-02T23:59:59.999Z'))).toBe('2026-09');
    expect(lastMonthToClose(Date.parse('2026-11-03T00:00:00Z'))).toBe('2026-10');
    expect(lastMonthToClose(Date.parse('2027-01-03T00:00:00Z'))).toBe('2026-12');
    expect(lastMonthToClose(Date.parse('2027-01-01T00:00:00Z'))).toBe('2026-11');
  });

  it('never closes on a read: a month past its close time reads open, from the ledger, and nothing is written', async () => {
    // Prepare: October charged; the job has not run on 20 November
    const { charge, read, statements } = books('2026-11-20T12:00:00Z');
    charge('2026-10-02', 1, 43_600);
    const first = await read('2026-10');
    charge('2026-10-19', 1, 43_600);
    // Act
    const second = await read('2026-10');
    const november = await read('2026-11');
    // Assess
    expect([first.status, second.status, november.status]).toEqual(['open', 'open', 'open']);
    expect(second.statements[0].totals.messages).toBe(2);
    expect(second.lines_sha256).not.toBe(first.lines_sha256);
    expect(statements.kept.size).toBe(0);
  });

  it('closes every client’s last month 15 minutes after its close time, once: a second run closes nothing and changes nothing', async () => {
    // Prepare
    const { charge, read, close, statements } = books();
    charge('2026-10-10', 10, 43_600);
    // Act: at the close time, within its grace (a status begun before it may still commit), then after
    const atCloseTime = await close('2026-11-03T00:14:59Z');
    const first = await close('2026-11-03T00:15:00Z');
    const kept = statements.kept.get('7|2026-10');
    const second = await close('2026-11-03T01:00:00Z');
    const october = await read('2026-10');
    // Assess
    expect(atCloseTime).toEqual({ closed: 0, failed: 0 });
    expect(first).toEqual({ closed: 1, failed: 0 });
    expect(second).toEqual({ closed: 0, failed: 0 });
    expect(statements.kept.get('7|2026-10')).toEqual(kept);
    expect(october.status).toBe('closed');
    expect(october.closed_snapshot_at).toBe('2026-11-03T00:15:00.000Z');
    expect(october.statements[0].totals).toEqual({ messages: 10, billable: 10, amount: 0.436 });
  });

  it('never changes a closed month: read on the 4th and the 20th, the same lines and hash; late charges go on the open month', async () => {
    // Prepare: October closed on the 3rd and read on the 4th; late October charges reach the ledger after
    const { charge, read, close, clock } = books();
    charge('2026-10-10', 10, 43_600);
    await close('2026-11-03T00:15:00Z');
    clock.now = at('2026-11-04T09:00:00Z');
    const fourth = await read('2026-10');
    charge('2026-10-30', 3, 43_600, { appliedAt: '2026-11-04T09:00:00Z' });
    charge('2026-10-30', 1, 8_000, { category: 'utility', appliedAt: '2026-11-04T09:00:00Z' });
    charge('2026-11-04', 2, 43_600, { appliedAt: '2026-11-04T09:00:00Z' });
    // Act
    clock.now = at('2026-11-20T09:00:00Z');
    const twentieth = await read('2026-10');
    const november = await read('2026-11');
    // Assess
    expect(twentieth).toEqual(fourth);
    expect(november.status).toBe('open');
    expect(november.statements[0].lines).toEqual([
      { kind: 'charge', market: 'Mexico', category: 'marketing', unit_price: 43_600, messages: 2, billable: 2, amount: 0.0872 },
      {
        kind: 'adjustment',
        market: 'Mexico',
        category: 'marketing',
        of_month: '2026-10',
        unit_price: 43_600,
        messages: 3,
        billable: 3,
        amount: 0.1308,
      },
      {
        kind: 'adjustment',
        market: 'Mexico',
        category: 'utility',
        of_month: '2026-10',
        unit_price: 8_000,
        messages: 1,
        billable: 1,
        amount: 0.008,
      },
    ]);
  });

  it('bills a charge of month M that arrives in M+3 on M+3’s statement, once, and every charge on exactly one statement', async () => {
    // Prepare: October, November and December close in turn; then an October charge arrives in January
    const { charge, read, close, ledger } = books();
    charge('2026-10-10', 10, 43_600);
    await close('2026-11-03T00:15:00Z');
    charge('2026-10-31', 5, 43_600, { appliedAt: '2026-11-03T00:00:00Z' });
    charge('2026-11-15', 1, 43_600);
    await close('2026-12-03T00:15:00Z');
    await close('2027-01-03T00:15:00Z');
    charge('2026-10-31', 4, 43_600, { appliedAt: '2027-01-03T00:00:00Z' });
    charge('2027-01-08', 2, 8_000, { category: 'utility' });
    // Act
    await close('2027-02-03T00:15:00Z');
    await close('2027-03-03T00:15:00Z');
    const months = ['2026-10', '2026-11', '2026-12', '2027-01', '2027-02', '2027-03'];
    const read_ = await Promise.all(months.map((month) => read(month)));
    // Assess: November bills October's first late charges, January the later ones; the books balance
    const adjusted = read_.map((s) =>
      s.statements
        .flatMap((c) => c.lines)
        .filter((l) => l.kind === 'adjustment')
        .map((l) => [l.of_month, l.messages]),
    );
    expect(adjusted).toEqual([[], [['2026-10', 5]], [], [['2026-10', 4]], [], []]);
    expect(read_.map((s) => s.status)).toEqual(['closed', 'closed', 'closed', 'closed', 'closed', 'open']);
    const billed = read_.reduce((sum, s) => sum + s.statements.reduce((m, c) => m + c.totals.messages, 0), 0);
    expect(billed).toBe(ledger.entries.reduce((sum, e) => sum + e.entry.messages, 0));
  });

  it('answers months from the client’s first charge to the open month, 404 for any other, and writes nothing', async () => {
    // Prepare: a first charge in September; nothing in October
    const { charge, deps, read, statements } = books('2026-11-20T12:00:00Z');
    charge('2026-09-12', 1, 43_600);
    // Act
    const october = await read('2026-10');
    const november = await read('2026-11');
    // Assess
    expect([october.statements, november.statements]).toEqual([[], []]);
    for (const month of ['2026-08', '0099-01', '1999-01', '0000-01'])
      await expect(statement(deps, callerOf(7), { client_id: 7, month })).rejects.toThrow(NotFound);
    await expect(statement(deps, bspCaller(), { client_id: 8, month: '2026-11' })).rejects.toThrow(NotFound);
    expect(statements.kept.size).toBe(0);
  });

  it('bills a charge of the month two back applied now as an adjustment on the open month; its closed month stays', async () => {
    // Prepare: September and October closed; on 20 November a September charge is applied
    const { charge, read, close, clock } = books();
    charge('2026-09-10', 2, 43_600);
    await close('2026-10-03T00:15:00Z');
    await close('2026-11-03T00:15:00Z');
    const september = await read('2026-09');
    clock.now = at('2026-11-20T12:00:00Z');
    // Act
    charge('2026-09-25', 1, 8_000, { category: 'utility', appliedAt: '2026-11-20T12:00:00Z' });
    const [after, october, november] = await Promise.all(['2026-09', '2026-10', '2026-11'].map((month) => read(month)));
    // Assess
    expect(after).toEqual(september);
    expect(october.statements).toEqual([]);
    expect(november.statements[0].lines).toEqual([
      {
        kind: 'adjustment',
        market: 'Mexico',
        category: 'utility',
        of_month: '2026-09',
        unit_price: 8_000,
        messages: 1,
        billable: 1,
        amount: 0.008,
      },
    ]);
  });

  it('bills a charge dated before the first closed month, applied after it closed, on the open month', async () => {
    // Prepare: the client's first charge is in October, closed on 3 November
    const { charge, read, close, clock, deps } = books();
    charge('2026-10-10', 1, 43_600);
    await close('2026-11-03T00:15:00Z');
    const october = await read('2026-10');
    clock.now = at('2026-11-10T08:00:00Z');
    // Act: a September charge comes on 10 November; the job runs again
    charge('2026-09-28', 2, 43_600, { appliedAt: '2026-11-10T08:00:00Z' });
    const rerun = await close('2026-11-10T09:00:00Z');
    const november = await read('2026-11');
    // Assess: on November's statement, naming September; October as closed; September has no statement
    expect(rerun).toEqual({ closed: 0, failed: 0 });
    expect(await read('2026-10')).toEqual(october);
    expect(november.statements[0].lines.map((l) => [l.kind, l.of_month, l.messages, l.amount])).toEqual([
      ['adjustment', '2026-09', 2, 0.0872],
    ]);
    await expect(statement(deps, callerOf(7), { client_id: 7, month: '2026-09' })).rejects.toThrow(NotFound);
  });

  it('reads an open month from its own days and the late charges filed under it, whatever the client’s history', async () => {
    // Prepare: a year of closed months, each charged, and late charges filed on the way
    const { charge, read, close, ledger, statements } = books();
    for (let m = 1; m <= 12; m++) {
      const month = `2025-${String(m).padStart(2, '0')}`;
      charge(`${month}-15`, 1, 43_600);
      // Late: a day of the month before, applied after it closed
      if (m > 1) charge(`2025-${String(m - 1).padStart(2, '0')}-02`, 1, 43_600, { appliedAt: `${month}-20T00:00:00Z` });
      await close(`${month}-20T00:00:00Z`);
    }
    await close('2026-11-03T00:15:00Z');
    charge('2026-11-05', 1, 43_600);
    ledger.reads.length = 0;
    statements.latestReads = 0;
    // Act
    const november = await read('2026-11');
    // Assess: November's days and November's filed charges, nothing else; no snapshot listed
    expect(november.statements[0].totals.messages).toBe(1);
    expect(ledger.reads).toEqual([
      { method: 'charges', from: '2026-11-01', to: '2026-11-30' },
      { method: 'adjustments', from: '2026-11', to: '2026-11' },
    ]);
    expect(statements.latestReads).toBe(0);
  });

  it('goes on with the other clients when one client’s close fails, counts it, and closes it on a later run', async () => {
    // Prepare: client 7's first put fails
    const { charge, close, statements, ledger } = books();
    charge('2026-10-10', 1, 43_600);
    ledger.charge(WABA, 8, {
      day: '2026-10-11',
      did: DID,
      market: 'Mexico',
      category: 'marketing',
      currency: 'USD',
      messages: 1,
      billable: 1,
      micros: 43_600,
    });
    const putOnce = statements.putOnce.bind(statements);
    let failures = 1;
    statements.putOnce = async (snapshot) => {
      if (snapshot.client_id === 7 && failures-- > 0) throw new Error('throttled');
      return putOnce(snapshot);
    };
    // Act
    const failed = await close('2026-11-03T00:15:00Z');
    const next = await close('2026-11-03T01:00:00Z');
    // Assess
    expect(failed).toEqual({ closed: 1, failed: 1 });
    expect(next).toEqual({ closed: 1, failed: 0 });
    expect([...statements.kept.keys()].sort()).toEqual(['7|2026-10', '8|2026-10']);
  });
});

describe('a statement a finance team can file (decisions §30)', () => {
  it('has a stable number, the provider’s name and address, and each total due in the currency’s minor unit', async () => {
    // Prepare: 0.2686 USD and 3 JPY-priced messages of 0.5 yen (1.5 yen: half up to 2)
    const { charge, read, close } = books();
    charge('2026-10-10', 6, 43_600);
    charge('2026-10-12', 5, 1_400, { market: 'India', category: 'utility' });
    charge('2026-10-12', 3, 500_000, { currency: 'JPY' });
    const open = await read('2026-10');
    await close('2026-11-03T00:15:00Z');
    // Act
    const closed = await read('2026-10');
    // Assess
    expect([open.number, closed.number]).toEqual(['ST-7-202610', 'ST-7-202610']);
    expect([closed.provider, closed.provider_address]).toEqual([ISSUER.name, ISSUER.address]);
    expect(closed.statements.map((s) => [s.currency, s.totals.amount, s.amount_due])).toEqual([
      ['JPY', 1.5, { amount: 2, minor_units: 2, minor_digits: 0 }],
      ['USD', 0.2686, { amount: 0.27, minor_units: 27, minor_digits: 2 }],
    ]);
    expect(closed.rounding).toMatch(/micro-unit.*half up.*minor unit/);
  });

  it('keeps charges for messages sent outside the service on lines of their own, and hashes them apart', async () => {
    // Prepare: the same market, category and price, once sent by the service and once outside it
    const { charge, read } = books();
    charge('2026-10-10', 2, 8_000, { category: 'utility' });
    charge('2026-10-10', 3, 8_000, { category: 'utility', origin: 'outside' });
    // Act
    const body = await read('2026-10');
    // Assess
    expect(body.statements[0].lines.map((l) => [l.kind, l.category, l.origin, l.messages])).toEqual([
      ['charge', 'utility', undefined, 2],
      ['charge', 'utility', 'outside', 3],
    ]);
    expect(body.statements[0].totals.messages).toBe(5);
  });
});

describe('who reads a statement and what they see (decisions §27)', () => {
  it('refuses another client’s agent (403), an unknown client (404), a bad or future month (400)', async () => {
    // Prepare
    const { deps } = books('2026-11-20T12:00:00Z');
    // Act / Assess
    await expect(statement(deps, callerOf(8), { client_id: 7, month: '2026-10' })).rejects.toThrow(Forbidden);
    await expect(statement(deps, bspCaller(), { client_id: 999, month: '2026-10' })).rejects.toThrow(NotFound);
    await expect(statement(deps, callerOf(7), { client_id: 7, month: '2026-13' })).rejects.toThrow(InvalidRequest);
    await expect(statement(deps, callerOf(7), { client_id: 7, month: '2026-12' })).rejects.toThrow('2026-12 is in the future');
  });

  it('bills a client with a price list at its price: its agent sees the price only, BSP_CN the cost and margin too', async () => {
    // Prepare: a list from 2026-10-01; a day priced at 0.05 for a cost of 0.0436
    const { charge, read } = books('2026-11-20T12:00:00Z', [{ effective_from: '2026-10-01', currency: 'USD' }]);
    charge('2026-10-12', 10, 43_600, { price_micros: 500_000, price_currency: 'USD' });
    // Act
    const agent = await read('2026-10');
    const bsp = await read('2026-10', bspCaller());
    // Assess
    expect(agent.statements[0].lines[0]).toEqual({
      kind: 'charge',
      market: 'Mexico',
      category: 'marketing',
      unit_price: 50_000,
      messages: 10,
      billable: 10,
      amount: 0.5,
    });
    expect(JSON.stringify(agent)).not.toMatch(/cost|margin/);
    expect(bsp.statements[0].lines[0]).toMatchObject({ amount: 0.5, cost: 0.436, margin: 0.064 });
    expect(bsp.statements[0].totals).toEqual({ messages: 10, billable: 10, amount: 0.5, cost: 0.436, margin: 0.064 });
    expect(bsp.price_list_versions).toEqual(['2026-10-01']);
    expect(bsp.lines_sha256).toBe(agent.lines_sha256);
  });
});

describe('a statement as CSV and PDF (decisions §27)', () => {
  it('holds the JSON’s lines and totals in its CSV and its PDF', async () => {
    // Prepare
    const { charge, read } = books('2026-11-20T12:00:00Z');
    charge('2026-10-01', 7, 43_600);
    charge('2026-10-02', 3, 8_000, { category: 'utility', market: 'Rest of Central & Eastern Europe' });
    charge('2026-10-03', 2, 20_000, { currency: 'EUR' });
    const body = await read('2026-10', bspCaller());
    // Act
    const csv = statementCsv(body);
    const pdf = await statementPdf(body);
    const { text, pages } = await pdfText(pdf);
    // Assess: a total row a currency with the JSON's totals; the PDF says the same, with client, period and hash
    const rows = csv
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const header = rows[0];
    const totals = rows.filter((row) => row[header.indexOf('kind')] === 'total');
    expect(totals.map((row) => [row[header.indexOf('currency')], Number(row[header.indexOf('amount')])])).toEqual(
      body.statements.map((s) => [s.currency, s.totals.amount]),
    );
    expect(rows).toHaveLength(1 + 3 + 2);
    expect(pages).toBe(1);
    for (const s of body.statements) expect(text).toContain(`Total ${s.currency}: ${s.totals.amount.toFixed(6)}`);
    expect(text).toContain('Acme');
    expect(text).toContain('2026-10-01 to 2026-10-31');
    expect(text).toContain(body.lines_sha256);
    expect(text).toContain('meta-2026-10-01-USD');
  });

  it('runs onto more pages when a month has many lines', async () => {
    // Prepare: 90 markets
    const { charge, read } = books('2026-11-20T12:00:00Z');
    for (let i = 0; i < 90; i++) charge('2026-10-07', 1, 40_000 + i, { market: `Market ${i}` });
    const body = await read('2026-10');
    // Act
    const { text, pages } = await pdfText(await statementPdf(body));
    // Assess
    expect(body.statements[0].lines.length).toBeGreaterThan(28);
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain(`Total USD: ${body.statements[0].totals.amount.toFixed(6)}`);
  });
});
