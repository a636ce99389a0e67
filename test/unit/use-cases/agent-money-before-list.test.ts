import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { PriceList } from '#lib/domain/money/pricing/price-list.ts';
import { statement } from '#lib/domain/money/statements/statement.ts';
import { listRecipients } from '#lib/domain/sends/operations/send-recipients.ts';
import type { RecipientLists, SendRecord, StoredRecipient } from '#lib/domain/sends/ports.ts';
import { getSend, listSends } from '#lib/domain/sends/send-status.ts';
import { statementPdf } from '#lib/http/statement-pdf.ts';
import { statementCsv } from '#lib/http/statement-render.ts';
import { ListRecipientsResponse, ListSendsResponse, SendStatusResponse } from '#lib/schemas/send.ts';
import { StatementResponse } from '#lib/schemas/statements.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { MemoryPriceListStore } from '../../support/memory/money/price-list-store.ts';
import { MemoryStatementStore } from '../../support/memory/money/statement-store.ts';
import { MemorySendRecords } from '../../support/memory/sends/send-records.ts';
import { MemorySendTable } from '../../support/memory/sends/send-table.ts';
import { bspCaller, callerOf, memoryWorld } from '../../support/memory/world.ts';
import { pdfText } from '../../support/pdf-text.ts';

/**
 * What was billed before a client's first price list, as its agents see it once the client has a list (decisions
 * §32, issue 52 item 2): never at Meta's cost, on a send, its recipients, the list of sends or the statement
 * (JSON, CSV and PDF); named as not priced instead. BSP_CN still sees the cost. On the in-memory stores.
 */
const agent = callerOf(7);
const bsp = bspCaller(7);
/** Meta's cost of one marketing message to Mexico, in micro-units: not a round number, so no count can equal it. */
const UNIT_COST = 31_137;
const COSTS = [UNIT_COST, 2 * UNIT_COST];
/** Every number of an answer, as given and as micro-units of an amount. */
const numbersIn = (value: unknown): number[] => {
  if (typeof value === 'number') return [value, Math.round(value * 1e6)];
  if (value && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
};
const numbersOfText = (text: string) => (text.match(/\d+(\.\d+)?/g) ?? []).map(Number).flatMap((n) => [n, Math.round(n * 1e6)]);

const upcomingList = (): PriceList => ({
  client_id: 7,
  effective_from: '2026-12-01',
  currency: 'USD',
  markup_percent: 37.5,
  created_at: '2026-11-25T10:00:00.000Z',
});

/** A send of two Mexican numbers, both delivered and billed at Meta's cost: accepted before any list. */
const sendBefore = (id: string, extra: Partial<SendRecord> = {}): SendRecord => ({
  send_id: id,
  client_id: 7,
  did: '15550000001',
  template: { name: 'promo', language: 'en_US' },
  status: 'queuing',
  created_at: '2026-11-20T10:00:00.000Z',
  total: 2,
  jobs: 1,
  job_firsts: [0],
  charges: { marketing: { messages: 2, billable: 2, micros: 2 * UNIT_COST } },
  ...extra,
});

const delivered = (index: number): StoredRecipient => ({
  index,
  to: `521555000000${index}`,
  outcome: { kind: 'sent', message_id: `wamid.${index}` },
  updated_at: '2026-11-20T10:01:00.000Z',
  delivery: { delivered: true, pricing: { category: 'marketing', type: 'regular', billable: true }, cost_micros: UNIT_COST },
});

/** The sends, their recipients, and the client's price lists, counting each read of the lists. */
async function sendsWorld(lists: PriceList[], sends: SendRecord[] = [sendBefore('send-before')]) {
  const store = new MemoryPriceListStore();
  for (const list of lists) await store.put(list);
  const reads: number[] = [];
  const priceLists = {
    lists: (clientId: number) => {
      reads.push(clientId);
      return store.lists(clientId);
    },
  };
  const records = new MemorySendRecords(new MemorySendTable());
  for (const send of sends) {
    await records.begin(send);
    await records.settle(send, 'queued');
  }
  const recipientLists: RecipientLists = { recordRecipients: async () => {}, recipients: async () => [delivered(0), delivered(1)] };
  return { deps: { sends: records, priceLists, recipientLists }, reads };
}

describe('a send billed before its client’s first price list (decisions §32)', () => {
  it('shows its agent no cost once the client has a list to come: named unpriced on the send, the list and each recipient', async () => {
    // Prepare
    const { deps } = await sendsWorld([upcomingList()]);
    // Act
    const own = await getSend(deps, agent, 'send-before');
    const listed = await listSends(deps, agent, {});
    const recipients = await listRecipients(deps, agent, 'send-before', {});
    // Assess
    expect(own).not.toHaveProperty('cost');
    expect(own).not.toHaveProperty('price');
    expect(own.unpriced).toBe(true);
    expect(listed.data[0]).toMatchObject({ send_id: 'send-before', unpriced: true });
    expect(listed.data[0]).not.toHaveProperty('cost');
    expect(recipients.data.map((r) => [r.status, 'cost' in r, r.unpriced])).toEqual([
      ['delivered', false, true],
      ['delivered', false, true],
    ]);
    expect(v.is(SendStatusResponse, own) && v.is(ListSendsResponse, listed) && v.is(ListRecipientsResponse, recipients)).toBe(true);
    expect(numbersIn([own, listed, recipients]).filter((n) => COSTS.includes(n))).toEqual([]);
  });

  it('still shows BSP_CN the cost, and the agent of a client without a list the cost it pays', async () => {
    // Prepare
    const priced = await sendsWorld([upcomingList()]);
    const unpriced = await sendsWorld([]);
    // Act
    const byBsp = await getSend(priced.deps, bsp, 'send-before');
    const recipientsByBsp = await listRecipients(priced.deps, bsp, 'send-before', {});
    const ownWithoutList = await getSend(unpriced.deps, agent, 'send-before');
    // Assess
    expect(byBsp.cost?.amount).toBe((2 * UNIT_COST) / 1e6);
    expect(byBsp).not.toHaveProperty('unpriced');
    expect(recipientsByBsp.data.map((r) => r.cost)).toEqual([UNIT_COST / 1e6, UNIT_COST / 1e6]);
    expect(ownWithoutList.cost?.amount).toBe((2 * UNIT_COST) / 1e6);
    expect(ownWithoutList).not.toHaveProperty('unpriced');
  });

  it('reads the lists once for a page of sends, and never for BSP_CN, a priced send or a send not billed yet', async () => {
    // Prepare: two sends billed at cost, one priced by its list, one not delivered yet
    const pricedSend = sendBefore('send-priced', {
      price_list: { effective_from: '2026-11-01', currency: 'USD' } as SendRecord['price_list'],
      charges: { marketing: { messages: 2, billable: 2, micros: 2 * UNIT_COST, price_micros: 100_000 } },
    });
    const waiting = sendBefore('send-waiting', { charges: undefined });
    const { deps, reads } = await sendsWorld([upcomingList()], [sendBefore('send-a'), sendBefore('send-b'), pricedSend, waiting]);
    // Act
    const page = await listSends(deps, agent, {});
    const afterPage = reads.length;
    await getSend(deps, bsp, 'send-a');
    await listSends(deps, bsp, {});
    await listRecipients(deps, bsp, 'send-a', {});
    await getSend(deps, agent, 'send-priced');
    await getSend(deps, agent, 'send-waiting');
    // Assess
    expect(afterPage).toBe(1);
    expect(reads).toEqual([7]);
    expect(page.data.filter((send) => send.unpriced).map((send) => send.send_id)).toEqual(['send-b', 'send-a']);
    expect(numbersIn(page).filter((n) => COSTS.includes(n))).toEqual([]);
  });
});

/** Client 7's books on the in-memory stores: a price list from 2026-11-15, and a clock in late November 2026. */
function statementWorld(lists: { effective_from: string; currency: string }[]) {
  const world = memoryWorld();
  const ledger = new MemoryCostLedger();
  const deps = {
    ledger,
    directory: world.directory,
    statements: new MemoryStatementStore(),
    priceLists: { lists: async () => lists },
    sha256: (text: string) => createHash('sha256').update(text, 'utf8').digest('hex'),
    issuer: { name: 'Acme Messaging Ltd', address: '1 Quay Street, Dublin' },
    now: () => Date.parse('2026-11-25T12:00:00Z'),
  };
  const entry = { did: '5215550001', market: 'Mexico', category: 'marketing', currency: 'USD', messages: 10, billable: 10 };
  // 10 messages billed at Meta's cost before the list, 10 at the list's 0.05 after it.
  ledger.charge('100200300', 7, { ...entry, day: '2026-11-10', micros: 10 * UNIT_COST });
  ledger.charge('100200300', 7, { ...entry, day: '2026-11-20', micros: 10 * UNIT_COST, price_micros: 500_000, price_currency: 'USD' });
  return (caller = agent) => statement(deps, caller, { client_id: 7, month: '2026-11' });
}

describe('a statement of the month a client’s first price list started (decisions §32)', () => {
  const FIGURES = [UNIT_COST, 10 * UNIT_COST, 10 * UNIT_COST + 500_000];

  it('shows its agent the lines billed before the list as not priced, and totals of the priced lines alone', async () => {
    // Prepare
    const read = statementWorld([{ effective_from: '2026-11-15', currency: 'USD' }]);
    // Act
    const own = await read();
    // Assess
    const [usd] = own.statements;
    expect(usd.lines).toEqual([
      { kind: 'charge', market: 'Mexico', category: 'marketing', messages: 10, billable: 10, priced: false },
      { kind: 'charge', market: 'Mexico', category: 'marketing', unit_price: 50_000, messages: 10, billable: 10, amount: 0.5 },
    ]);
    expect(usd.totals).toEqual({ messages: 10, billable: 10, amount: 0.5, unpriced_messages: 10, unpriced_billable: 10 });
    expect(usd.amount_due.minor_units).toBe(50);
    expect(v.is(StatementResponse, own)).toBe(true);
    expect(numbersIn(own).filter((n) => FIGURES.includes(n))).toEqual([]);
  });

  it('writes the same view in its CSV and PDF: the lines named not priced, no number equal to their cost', async () => {
    // Prepare
    const own = await statementWorld([{ effective_from: '2026-11-15', currency: 'USD' }])();
    // Act
    const csv = statementCsv(own);
    const { text } = await pdfText(await statementPdf(own));
    // Assess
    const [header, ...rows] = csv
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const unpriced = rows.find((row) => row[header.indexOf('priced')] === 'false');
    expect(unpriced?.[header.indexOf('amount')]).toBe('');
    expect(unpriced?.[header.indexOf('unit_price_micros')]).toBe('');
    expect(rows.find((row) => row[header.indexOf('kind')] === 'total')?.[header.indexOf('unpriced_messages')]).toBe('10');
    expect(text).toContain('not priced');
    expect(text).toContain('Total USD: 0.500000');
    expect([...numbersOfText(csv), ...numbersOfText(text)].filter((n) => FIGURES.includes(n))).toEqual([]);
  });

  it('leaves BSP_CN’s statement (the invoice) as it was: every line at what it billed, with cost and margin', async () => {
    // Prepare
    const read = statementWorld([{ effective_from: '2026-11-15', currency: 'USD' }]);
    // Act
    const invoice = await read(bsp);
    // Assess
    const [usd] = invoice.statements;
    expect(usd.lines.map((l) => [l.unit_price, l.amount, l.cost, 'priced' in l])).toEqual([
      [UNIT_COST, (10 * UNIT_COST) / 1e6, (10 * UNIT_COST) / 1e6, false],
      [50_000, 0.5, (10 * UNIT_COST) / 1e6, false],
    ]);
    expect(usd.totals).toMatchObject({ messages: 20, billable: 20, amount: (10 * UNIT_COST + 500_000) / 1e6 });
    expect(usd.totals).not.toHaveProperty('unpriced_messages');
  });

  it('shows the agent of a client without a list every line at the cost it pays', async () => {
    // Prepare
    const read = statementWorld([]);
    // Act
    const own = await read();
    // Assess
    expect(own.statements[0].totals).toEqual({ messages: 20, billable: 20, amount: (10 * UNIT_COST + 500_000) / 1e6 });
    expect(own.statements[0].lines.every((line) => line.amount !== undefined && !('priced' in line))).toBe(true);
  });
});
