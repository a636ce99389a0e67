import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '#lib/domain/money/ports.ts';
import { closeMonths } from '#lib/domain/money/statements/close-months.ts';
import { statement } from '#lib/domain/money/statements/statement.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { statementPdf } from '#lib/http/statement-pdf.ts';
import { statementCsv } from '#lib/http/statement-render.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { MemoryStatementStore } from '../../support/memory/money/statement-store.ts';
import { bspCaller, callerOf, memoryWorld } from '../../support/memory/world.ts';
import { pdfText } from '../../support/pdf-text.ts';

/**
 * A statement prints the exchange rates its price lists applied (decisions §31, issue 53 item 5): client 7 of the
 * demo fixture bills WABA 100200300 in USD and pays a list in MXN that converts Meta's USD cost at its rate. The
 * close job keeps each rate with the month; a closed month prints the rate it was billed at, whatever the list
 * says later. A rate is not a cost, margin or markup: the client's agents see it.
 */
const WABA = '100200300';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const ISSUER = { name: 'Acme Messaging Ltd', address: '1 Quay Street, Dublin D02, Ireland' };

type List = { effective_from: string; currency: string; exchange_rates?: Record<string, number> };

/** Client 7's books on the in-memory stores, with its lists as given (the test may change them later). */
function books(lists: List[]) {
  const world = memoryWorld();
  const ledger = new MemoryCostLedger();
  const clock = { now: Date.parse('2026-11-20T12:00:00Z') };
  const deps = {
    ledger,
    directory: world.directory,
    statements: new MemoryStatementStore(),
    sha256,
    priceLists: { lists: async () => lists },
    issuer: ISSUER,
    log: silentLog,
    now: () => clock.now,
  };
  /** `billable` Mexico marketing messages on a day, Meta's cost `cost` USD micro-units each, priced at `price` MXN ones. */
  const charge = (day: string, billable: number, cost: number, price: number, more: Partial<LedgerEntry> = {}) =>
    ledger.charge(WABA, 7, {
      day,
      did: '5215550001',
      market: 'Mexico',
      category: 'marketing',
      currency: 'USD',
      messages: billable,
      billable,
      micros: billable * cost,
      price_micros: billable * price,
      price_currency: 'MXN',
      ...more,
    });
  const read = (month: string, caller = callerOf(7)) => statement(deps, caller, { client_id: 7, month });
  const close = (iso: string) => {
    clock.now = Date.parse(iso);
    return closeMonths(deps, clock.now);
  };
  return { charge, read, close };
}

describe('the exchange rates a month’s price lists applied (decisions §31)', () => {
  it('keeps the rate with the closed month: a list changed later does not move it', async () => {
    // Prepare: October priced by a list in MXN at 17.25 MXN per USD; it names a EUR rate no charge used
    const lists: List[] = [{ effective_from: '2026-10-01', currency: 'MXN', exchange_rates: { USD: 17.25, EUR: 19.8 } }];
    const { charge, read, close } = books(lists);
    charge('2026-10-12', 10, 25_000, 474_375);
    await close('2026-11-03T00:15:00Z');
    // Act: the list's rate changes after October closed
    lists[0].exchange_rates = { USD: 18 };
    const closed = await read('2026-10');
    // Assess
    expect(closed.status).toBe('closed');
    expect(closed.exchange_rates).toEqual([{ price_list: '2026-10-01', currency: 'MXN', per: 'USD', rate: 17.25 }]);
  });

  it('names each list in force on the days priced, once a list and currency, in their order', async () => {
    // Prepare: a list from 1 October and another from 15 October, each converting USD at its own rate
    const { charge, read } = books([
      { effective_from: '2026-10-15', currency: 'MXN', exchange_rates: { USD: 17.5 } },
      { effective_from: '2026-10-01', currency: 'MXN', exchange_rates: { USD: 17.25 } },
    ]);
    charge('2026-10-03', 2, 25_000, 474_375);
    charge('2026-10-09', 1, 25_000, 474_375);
    charge('2026-10-20', 4, 25_000, 481_250);
    // Act
    const open = await read('2026-10');
    // Assess
    expect(open.price_list_versions).toEqual(['2026-10-01', '2026-10-15']);
    expect(open.exchange_rates).toEqual([
      { price_list: '2026-10-01', currency: 'MXN', per: 'USD', rate: 17.25 },
      { price_list: '2026-10-15', currency: 'MXN', per: 'USD', rate: 17.5 },
    ]);
  });

  it('names no rate where the list is in the currency Meta charged in', async () => {
    // Prepare: a list in USD for a WABA billed in USD (its rates never apply)
    const { charge, read } = books([{ effective_from: '2026-10-01', currency: 'USD', exchange_rates: { MXN: 0.058 } }]);
    charge('2026-10-12', 3, 25_000, 30_000, { price_currency: 'USD' });
    // Act
    const open = await read('2026-10', bspCaller());
    // Assess
    expect(open.price_list_versions).toEqual(['2026-10-01']);
    expect(open).not.toHaveProperty('exchange_rates');
  });
});

describe('a statement’s rates as its agent reads them, in JSON, CSV and PDF (decisions §31, §32)', () => {
  it('prints “Price list 2026-10-01: 17.25 MXN per USD” on the MXN total and in the PDF, and never a cost', async () => {
    // Prepare
    const { charge, read } = books([{ effective_from: '2026-10-01', currency: 'MXN', exchange_rates: { USD: 17.25 } }]);
    charge('2026-10-12', 10, 25_000, 474_375);
    const body = await read('2026-10');
    // Act
    const rows = statementCsv(body)
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const { text } = await pdfText(await statementPdf(body));
    // Assess
    expect(body.exchange_rates).toEqual([{ price_list: '2026-10-01', currency: 'MXN', per: 'USD', rate: 17.25 }]);
    expect(JSON.stringify(body)).not.toMatch(/cost|margin|markup/);
    const [header, ...lines] = rows;
    const total = lines.find((row) => row[header.indexOf('kind')] === 'total') ?? [];
    expect(total[header.indexOf('currency')]).toBe('MXN');
    expect(total[header.indexOf('exchange_rates')]).toBe('Price list 2026-10-01: 17.25 MXN per USD');
    expect(text).toContain('Price list 2026-10-01: 17.25 MXN per USD');
  });
});
