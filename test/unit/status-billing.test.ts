import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BatchMessage, type BilledStatus, billStatusBatch } from '#lib/domain/money/status-billing.ts';
import { type StatusReport, statusChange, type MessageCharge, type MessagePricing } from '#lib/domain/shared/message-status.ts';

/**
 * The money rules of a batch of status reports of one send (decisions §24, §26, §27), on the pure function both
 * stores write from: each message charged once, on the client's ledger by day, market and category, on its
 * budget's months (spent and released), and toward the WABA's volume tiers.
 */
const SEND = { client_id: 7, did: '5215550001' };
const WABA = '100200300';
const APRIL_10 = Date.parse('2026-04-10T12:00:00Z');
const DAY_MS = 86_400_000;
const marketing: MessagePricing = { category: 'marketing', type: 'regular', billable: true };
const utility: MessagePricing = { category: 'utility', type: 'regular', billable: true };
const service: MessagePricing = { category: 'service', type: 'free_customer_service', billable: false };
const UNDELIVERABLE = { code: '131026', title: 'Message undeliverable' };

const chargeOf = (micros: number, pricing = marketing, market = 'Brazil'): MessageCharge => ({ pricing, market, micros, currency: 'USD' });

/** A report as the inbound path makes it: Meta's status, with the charge a delivery brings. */
const report = (kind: StatusReport, own: Omit<BilledStatus, 'change'> & { charge?: MessageCharge } = {}): BilledStatus => {
  const { charge, ...rest } = own;
  return {
    chargedAt: APRIL_10,
    ...rest,
    change: (state) => statusChange(state, kind, kind === 'failed' ? UNDELIVERABLE : undefined, charge),
  };
};
const message = (index: number, ...statuses: BilledStatus[]): BatchMessage => ({ index, state: {}, statuses });
const billOf = (messages: BatchMessage[], known: { send?: typeof SEND; wabaId?: string } = { send: SEND, wabaId: WABA }) =>
  billStatusBatch({ messages, ...known, now: APRIL_10 });

describe('a status batch’s bill', () => {
  it('charges a delivered billable message once: its charge, its ledger entry and its budget’s spent', () => {
    // Prepare: one message delivered with its pricing, its send having reserved 30 000 of April
    const delivered = report('delivered', { charge: chargeOf(25_000), reserved: { month: '2026-04', micros: 30_000 } });
    // Act
    const bill = billOf([message(3, delivered)]);
    // Assess
    expect(bill.messages).toEqual([
      {
        index: 3,
        applied: [true],
        moved: true,
        state: { delivered: true, pricing: marketing, cost_micros: 25_000 },
        charge: chargeOf(25_000),
      },
    ]);
    expect(bill.ledger).toEqual([
      {
        day: '2026-04-10',
        did: SEND.did,
        market: 'Brazil',
        category: 'marketing',
        currency: 'USD',
        messages: 1,
        billable: 1,
        micros: 25_000,
      },
    ]);
    expect(bill.budget).toEqual(new Map([['2026-04', { spent: 25_000, released: 30_000 }]]));
    expect(bill.byCategory).toEqual(new Map([['marketing', { messages: 1, billable: 1, micros: 25_000 }]]));
    expect(bill.counts).toEqual({ delivered: 1 });
  });

  it('charges nothing more for a repeated status, in the batch or after it', () => {
    // Prepare: a message delivered, then reported delivered again and read; another delivered before this batch
    const charge = chargeOf(25_000);
    const again = message(1, report('delivered', { charge }), report('delivered', { charge }), report('read', { charge }));
    const before = {
      index: 2,
      state: { delivered: true, pricing: marketing, cost_micros: 25_000 },
      statuses: [report('delivered', { charge })],
    };
    // Act
    const bill = billOf([again, before]);
    // Assess: one charge, on the ledger once and spent once; the read counted, the repeats not
    expect(bill.messages.map(({ applied }) => applied)).toEqual([[true, false, true], [false]]);
    expect(bill.messages[1]).toMatchObject({ moved: false });
    expect(bill.messages[1].charge).toBeUndefined();
    expect(bill.ledger).toMatchObject([{ messages: 1, micros: 25_000 }]);
    expect(bill.budget).toEqual(new Map([['2026-04', { spent: 25_000, released: 0 }]]));
    expect(bill.counts).toEqual({ delivered: 1, read: 1 });
  });

  it('keeps a free message on the ledger as not billable, spending nothing of the budget or the tiers', () => {
    // Prepare: a service message Meta does not charge, in a tier-counted market
    const free = report('delivered', { charge: chargeOf(0, service), tierVolume: { month: '2026-04', key: 'Brazil|service' } });
    // Act
    const bill = billOf([message(0, free)]);
    // Assess
    expect(bill.ledger).toEqual([
      { day: '2026-04-10', did: SEND.did, market: 'Brazil', category: 'service', currency: 'USD', messages: 1, billable: 0, micros: 0 },
    ]);
    expect(bill.budget.size).toBe(0);
    expect(bill.tiers.size).toBe(0);
  });

  it('releases a failed message’s reservation in the month its send reserved, charging nothing', () => {
    // Prepare: a message of a send that reserved in March fails in April
    const failed = report('failed', { reserved: { month: '2026-03', micros: 30_000 } });
    // Act
    const bill = billOf([message(5, failed)]);
    // Assess
    expect(bill.messages[0]).toMatchObject({ moved: true, state: { failed: UNDELIVERABLE } });
    expect(bill.messages[0].charge).toBeUndefined();
    expect(bill.budget).toEqual(new Map([['2026-03', { spent: 0, released: 30_000 }]]));
    expect(bill.ledger).toEqual([]);
    expect(bill.counts).toEqual({ sent: -1, failed: 1 });
    expect(bill.errors).toEqual(new Map([[UNDELIVERABLE.code, { title: UNDELIVERABLE.title, count: 1 }]]));
  });

  it('counts billable charges toward the WABA’s tier of each market and category, by month', () => {
    // Prepare: two utility messages to Brazil and one marketing message to India, each tier-counted in April
    const tiered = (pricing: MessagePricing, market: string) =>
      report('delivered', {
        charge: chargeOf(8_000, pricing, market),
        tierVolume: { month: '2026-04', key: `${market}|${pricing.category}` },
      });
    const batch = [message(0, tiered(utility, 'Brazil')), message(1, tiered(utility, 'Brazil')), message(2, tiered(marketing, 'India'))];
    // Act
    const bill = billOf(batch);
    // Assess
    expect(bill.tiers).toEqual(
      new Map([
        [
          '2026-04',
          new Map([
            ['Brazil|utility', 2],
            ['India|marketing', 1],
          ]),
        ],
      ]),
    );
    expect(bill.ledger.map(({ market, category, messages }) => [market, category, messages])).toEqual([
      ['Brazil', 'utility', 2],
      ['India', 'marketing', 1],
    ]);
  });

  it('keeps the ledger by day, with the client’s price apart, and spends the budget in its own currency', () => {
    // Prepare: a priced message delivered on 10 April, another on 11 April at the same price
    const priced = (at: number) =>
      report('delivered', {
        chargedAt: at,
        charge: { ...chargeOf(20_000), price: { micros: 40_000, currency: 'EUR' }, budget_micros: 40_000 },
      });
    // Act
    const bill = billOf([message(0, priced(APRIL_10)), message(1, priced(APRIL_10 + DAY_MS))]);
    // Assess
    expect(bill.ledger.map(({ day, micros, price_micros, price_currency }) => ({ day, micros, price_micros, price_currency }))).toEqual([
      { day: '2026-04-10', micros: 20_000, price_micros: 40_000, price_currency: 'EUR' },
      { day: '2026-04-11', micros: 20_000, price_micros: 40_000, price_currency: 'EUR' },
    ]);
    expect(bill.budget).toEqual(new Map([['2026-04', { spent: 80_000, released: 0 }]]));
    expect(bill.byCategory.get('marketing')).toEqual({ messages: 2, billable: 2, micros: 40_000, price: 80_000 });
  });

  it('bills to no ledger, budget or tier when the send’s client or its WABA is unknown', () => {
    // Prepare
    const delivered = () =>
      report('delivered', {
        charge: chargeOf(25_000),
        reserved: { month: '2026-04', micros: 1 },
        tierVolume: { month: '2026-04', key: 'Brazil|marketing' },
      });
    // Act
    const noWaba = billOf([message(0, delivered())], { send: SEND });
    const noSend = billOf([message(0, delivered())], { wabaId: WABA });
    // Assess: the send's own charges stay; where they go needs both
    expect([noWaba.ledger, noSend.ledger]).toEqual([[], []]);
    expect([noWaba.tiers.size, noSend.tiers.size]).toEqual([0, 1]);
    expect([noWaba.budget.size, noSend.budget.size]).toEqual([1, 0]);
    expect(noSend.byCategory.get('marketing')).toMatchObject({ messages: 1, micros: 25_000 });
  });
});

describe('a status batch’s bill, whatever its reports', () => {
  it('charges each delivered message once: its charges, the ledger and the budget’s spent agree', () => {
    const messages = fc.array(
      fc.record({
        micros: fc.nat({ max: 200_000 }),
        billable: fc.boolean(),
        reserved: fc.nat({ max: 200_000 }),
        day: fc.nat({ max: 40 }),
        reports: fc.array(fc.constantFrom<StatusReport>('sent', 'delivered', 'read', 'failed'), { minLength: 1, maxLength: 6 }),
      }),
      { minLength: 1, maxLength: 30 },
    );
    fc.assert(
      fc.property(messages, (drawn) => {
        // Prepare: each message's reports in any order and repeated, its charge the same whichever report brings it
        const batch = drawn.map((m, index) => {
          const charge = chargeOf(m.micros, { ...marketing, billable: m.billable });
          const own = { chargedAt: APRIL_10 + m.day * DAY_MS, reserved: { month: '2026-03', micros: m.reserved }, charge };
          return message(index, ...m.reports.map((kind) => report(kind, kind === 'failed' ? { reserved: own.reserved } : own)));
        });
        // Act
        const bill = billOf(batch);
        // Assess
        const reached = drawn.filter(({ reports }) => reports.some((r) => r === 'delivered' || r === 'read'));
        const settled = drawn.filter(({ reports }) => reports.some((r) => r !== 'sent'));
        const charged = bill.messages.flatMap(({ charge }) => (charge ? [charge.micros] : []));
        const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
        const spent = sum([...bill.budget.values()].map((move) => move.spent));
        expect(charged.length).toBe(reached.length);
        expect(sum(charged)).toBe(sum(reached.map(({ micros }) => micros)));
        expect(sum(bill.ledger.map(({ micros }) => micros))).toBe(sum(charged));
        expect(spent).toBe(sum(charged));
        expect(sum(bill.ledger.map(({ messages }) => messages))).toBe(reached.length);
        expect(bill.budget.get('2026-03')?.released ?? 0).toBe(sum(settled.map(({ reserved }) => reserved)));
      }),
      { numRuns: 300 },
    );
  });
});
