import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '#lib/domain/shared/errors.ts';
import type { LedgerEntry } from '#lib/domain/money/ports.ts';
import type { SendRecord } from '#lib/domain/sends/ports.ts';
import { usage } from '#lib/domain/money/usage.ts';
import { parseGroups } from '#lib/domain/money/usage-groups.ts';
import { csvOf } from '#lib/http/csv.ts';
import { USAGE_CSV } from '#lib/schemas/usage.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { bspCaller, callerOf, memoryWorld } from '../../support/memory/world.ts';

/** Usage exports (decisions §27) on the in-memory stores: client 7 bills WABA 100200300 of the demo fixture. */
const WABA = '100200300';

function usageBooks(lists: { effective_from: string; currency: string }[] = []) {
  const world = memoryWorld();
  const ledger = new MemoryCostLedger();
  const deps = { ledger, directory: world.directory, sends: world.sends, priceLists: { lists: async () => lists } };
  const charge = (entry: Partial<LedgerEntry> & { day: string }) =>
    ledger.charge(WABA, 7, {
      did: '5215550001',
      market: 'Mexico',
      category: 'marketing',
      currency: 'USD',
      messages: 1,
      billable: 1,
      micros: 43_600,
      ...entry,
    });
  const send = (id: string, createdAt: string, template: string, charges: SendRecord['charges']) =>
    world.sendTable.sends.set(id, {
      send_id: id,
      client_id: 7,
      did: '5215550001',
      template: { name: template, language: 'en_US' },
      currency: 'USD',
      status: 'queued',
      created_at: createdAt,
      total: 1,
      jobs: 1,
      charges,
    });
  const read = (group_by: string | undefined, caller = callerOf(7), period = { from: '2026-10-01', to: '2026-11-30' }) =>
    usage(deps, caller, { ...period, group_by, ...(caller.isBsp && { client_id: 7 }) });
  return { charge, send, read };
}

describe('group_by as a comma list (decisions §27)', () => {
  it('refuses unknown names, repeats, day with month, and template or send with anything but category, naming the rule', () => {
    // Prepare / Act / Assess
    expect(parseGroups(undefined)).toEqual(['day']);
    expect(parseGroups('market, category')).toEqual(['market', 'category']);
    expect(parseGroups('send,template,category')).toEqual(['send', 'template', 'category']);
    expect(() => parseGroups('market,country')).toThrow(
      new InvalidRequest('group_by: "country" is not one of day, month, market, category, did, template, send'),
    );
    expect(() => parseGroups('market,market')).toThrow('group_by names market twice');
    expect(() => parseGroups('day,month')).toThrow('group_by takes day or month, not both');
    expect(() => parseGroups('template,market')).toThrow('group_by template or send combines with category only');
    expect(() => parseGroups('send,day')).toThrow('group_by template or send combines with category only');
  });
});

describe('usage rows by several groups (decisions §27)', () => {
  it('groups the ledger by month, market and category, each row naming its client, currency and period', async () => {
    // Prepare
    const { charge, read } = usageBooks();
    charge({ day: '2026-10-05' });
    charge({ day: '2026-10-06', messages: 2, billable: 2, micros: 87_200 });
    charge({ day: '2026-10-06', category: 'utility', micros: 8_000 });
    charge({ day: '2026-11-02', market: 'Brazil', micros: 62_500 });
    // Act
    const body = await read('month,market,category', callerOf(7), { from: '2026-10-03', to: '2026-11-20' });
    // Assess
    expect(body.group_by).toBe('month,market,category');
    expect(body.data).toEqual([
      {
        client_id: 7,
        from: '2026-10-03',
        to: '2026-10-31',
        period: '2026-10',
        market: 'Mexico',
        category: 'marketing',
        currency: 'USD',
        messages: 3,
        billable: 3,
        amount: 0.1308,
      },
      {
        client_id: 7,
        from: '2026-10-03',
        to: '2026-10-31',
        period: '2026-10',
        market: 'Mexico',
        category: 'utility',
        currency: 'USD',
        messages: 1,
        billable: 1,
        amount: 0.008,
      },
      {
        client_id: 7,
        from: '2026-11-01',
        to: '2026-11-20',
        period: '2026-11',
        market: 'Brazil',
        category: 'marketing',
        currency: 'USD',
        messages: 1,
        billable: 1,
        amount: 0.0625,
      },
    ]);
  });

  it('splits rows by currency, and writes every CSV row with client, currency and period', async () => {
    // Prepare
    const { charge, read } = usageBooks();
    charge({ day: '2026-10-05' });
    charge({ day: '2026-10-05', currency: 'EUR', micros: 40_000 });
    // Act
    const body = await read('day,did');
    const csv = csvOf(body.data, USAGE_CSV).trim().split('\r\n');
    // Assess
    expect(body.currency).toBeUndefined();
    expect(body.data.map((r) => [r.period, r.did, r.currency])).toEqual([
      ['2026-10-05', '5215550001', 'EUR'],
      ['2026-10-05', '5215550001', 'USD'],
    ]);
    expect(csv[0]).toBe(USAGE_CSV.columns.join(','));
    expect(csv[1]).toBe('7,2026-10-05,2026-10-05,2026-10-05,,,5215550001,,,EUR,1,1,0.0400,,,,,');
  });

  it('groups by send and template (with category) from the sends accepted in the period, all their charges', async () => {
    // Prepare: two sends of one template in October, one of another; one in September (outside)
    const { send, read } = usageBooks();
    send('s1', '2026-10-02T10:00:00Z', 'promo', { marketing: { messages: 10, billable: 10, micros: 436_000 } });
    send('s2', '2026-10-20T10:00:00Z', 'promo', {
      marketing: { messages: 5, billable: 4, micros: 174_400 },
      utility: { messages: 2, billable: 2, micros: 16_000 },
    });
    send('s3', '2026-11-01T10:00:00Z', 'order_update', { utility: { messages: 3, billable: 3, micros: 24_000 } });
    send('s0', '2026-09-30T10:00:00Z', 'promo', { marketing: { messages: 99, billable: 99, micros: 1 } });
    // Act
    const byTemplate = await read('template');
    const bySend = await read('send,category');
    // Assess
    expect(byTemplate.data.map((r) => [r.template, r.messages, r.amount, r.from, r.to])).toEqual([
      ['order_update', 3, 0.024, '2026-10-01', '2026-11-30'],
      ['promo', 17, 0.6264, '2026-10-01', '2026-11-30'],
    ]);
    expect(bySend.data.map((r) => [r.send, r.category, r.messages, r.billable, r.amount])).toEqual([
      ['s1', 'marketing', 10, 10, 0.436],
      ['s2', 'marketing', 5, 4, 0.1744],
      ['s2', 'utility', 2, 2, 0.016],
      ['s3', 'utility', 3, 3, 0.024],
    ]);
  });

  it('shows an agent of a client with a price list its price only, and BSP_CN the cost, price and margin', async () => {
    // Prepare: a price from 2026-10-10 on; a day before it at cost
    const { charge, read } = usageBooks([{ effective_from: '2026-10-10', currency: 'USD' }]);
    charge({ day: '2026-10-05' });
    charge({ day: '2026-10-12', messages: 2, billable: 2, micros: 87_200, price_micros: 100_000, price_currency: 'USD' });
    // Act
    const agent = await read('market');
    const bsp = await read('market', bspCaller());
    // Assess
    expect(agent.data).toEqual([
      { client_id: 7, from: '2026-10-01', to: '2026-11-30', market: 'Mexico', currency: 'USD', messages: 3, billable: 3, price: 0.1436 },
    ]);
    expect(bsp.data[0]).toMatchObject({ amount: 0.1308, price: 0.1436, margin: 0.0128 });
  });
});
