import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { chargeOf, MAX_PRICE_CATEGORY } from '#lib/domain/money/pricing/charge.ts';
import { estimateOf } from '#lib/domain/money/pricing/estimate.ts';
import { type PriceList, priceOf } from '#lib/domain/money/pricing/price-list.ts';
import { recipientEstimate, reservationFor } from '#lib/domain/money/pricing/reservation.ts';
import { statement } from '#lib/domain/money/statements/statement.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { cloudMessage } from '#lib/domain/sends/cloud-message.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { applyMessageStatuses } from '#lib/domain/sends/message-statuses.ts';
import { messageReference } from '#lib/domain/shared/message-status.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { MemoryStatementStore } from '../../support/memory/money/statement-store.ts';
import { TableCostLedger } from '../../support/memory/money/table-cost-ledger.ts';
import { bspCaller, callerOf, memoryWorld } from '../../support/memory/world.ts';

/**
 * Max price on the Marketing Messages API (decisions §34, issue 55 item 5): a MARKETING send's `max_price` per 1,000
 * deliveries is what it reserves, Meta's charged price (the emulator's, at or below it) what the ledger, the budget
 * and the statement carry, on lines of their own (`marketing_max_price`), resold as the client's price list says.
 */
const WABA = '100200300';
const DID = '5215550001';
const NOW = '2026-11-25T10:00:00.000Z';
const MEXICO = ['5215512340001', '5215512340002', '5215512340003'];
const list = (extra: Partial<PriceList> = {}): PriceList => ({
  client_id: 7,
  effective_from: '2026-11-01',
  currency: 'USD',
  markup_percent: 50,
  prices: { Mexico: { marketing: 0.09 } },
  created_at: '2026-10-01',
  ...extra,
});

describe('a max-price reservation and estimate', () => {
  it('reserves each recipient at the max price ÷ 1,000, not the card’s rate, in every market', () => {
    // Prepare
    const max = { amount_per_1000: 25, currency: 'USD' };
    // Act
    const reservation = reservationFor('MARKETING', NOW, 'USD', undefined, 'USD', 'UTC', max);
    const estimate = estimateOf(rateCards, ['5215512340001', '5511987650001'], 'MARKETING', Date.parse(NOW), 'USD', 'UTC', max);
    // Assess
    expect(reservation.max_price).toEqual({ micros: 25_000, currency: 'USD' });
    expect(recipientEstimate(reservation, '5215512340001')).toBe(25_000);
    expect(recipientEstimate(reservation, '5511987650001')).toBe(25_000);
    expect(estimate).toMatchObject({ currency: 'USD', micros: 50_000, amount: 0.05, max_price: max });
  });

  it('reserves in the client’s price: the max price plus the list’s max-price markup, never its fixed price', () => {
    // Prepare
    const max = { amount_per_1000: 25, currency: 'USD' };
    // Act
    const atCost = reservationFor('MARKETING', NOW, 'USD', list(), 'USD', 'UTC', max);
    const marked = reservationFor('MARKETING', NOW, 'USD', list({ max_price_markup_percent: 20 }), 'USD', 'UTC', max);
    // Assess
    expect(recipientEstimate(atCost, MEXICO[0])).toBe(25_000);
    expect(recipientEstimate(marked, MEXICO[0])).toBe(30_000);
  });
});

describe('a max-price charge', () => {
  it('is Meta’s charged price, under a category of its own; resold at the max-price markup, at cost without one', () => {
    // Prepare
    const pricing = { category: 'marketing_lite', type: 'regular', billable: true, max_price: { charged_amount: 0.02, currency: 'USD' } };
    // Act
    const charge = chargeOf(rateCards, pricing, MEXICO[0], Date.parse(NOW), { currency: 'USD' });
    const priced = (l: PriceList) =>
      priceOf([l], {
        day: '2026-11-25',
        market: 'Mexico',
        category: 'marketing',
        costMicros: 20_000,
        costCurrency: 'USD',
        billable: true,
        maxPrice: true,
      });
    // Assess
    expect(charge).toEqual({
      pricing: { category: MAX_PRICE_CATEGORY, type: 'regular', billable: true },
      market: 'Mexico',
      micros: 20_000,
      currency: 'USD',
    });
    expect(priced(list())?.micros).toBe(20_000);
    expect(priced(list({ max_price_markup_percent: 10 }))?.micros).toBe(22_000);
  });
});

/** A MARKETING send of three Mexican numbers for client 7 on an onboarded WABA, with `max_price` given. */
function maxPriceSend(maxPrice: unknown) {
  const world = memoryWorld();
  world.emulator.model.wabas.get(WABA)!.mm_onboarded = true;
  const template = world.emulator.model.wabas.get(WABA)!.templates.find((t) => t.name === 'summer_promo')!;
  template.status = 'APPROVED';
  for (const record of world.templateTable.records.values())
    if (record.meta_template.id === template.id) record.meta_template = { ...record.meta_template, status: 'APPROVED' };
  const body = {
    did: DID,
    type: 'template' as const,
    channel: 'MSGCHAN' as const,
    template: { name: 'summer_promo', language: 'en_US' },
    max_price: maxPrice as { amount_per_1000: number; currency: string },
    recipients: MEXICO.map((to) => ({ to, params: { header: ['Ana'], body: ['20%'] } })),
  };
  return { world, deps: { ...world, now: () => NOW }, body };
}

describe('a max-price send through the status path to its statement', () => {
  it('is reserved at its max, charged at the emulator’s price, and on the statement as its own line', async () => {
    // Prepare
    const { world, deps, body } = maxPriceSend({ amount_per_1000: 25, currency: 'USD' });
    world.emulator.pricing.clearing.set(WABA, 0.8);
    // Act: accepted, its messages as the dispatcher sends them, Meta's delivered statuses applied
    const accepted = await sendTemplate(deps, callerOf(7), { pathDid: DID, body, sendId: 'mp1' });
    const reservedAtAccept = (await world.budgets.month(7, '2026-11')).reserved;
    const job = world.queue.sent[0] as unknown as DispatchJob;
    const messages = job.recipients.map((recipient, i) => ({
      id: `wamid.mp.${i}`,
      phone_number_id: job.phone_number_id as string,
      accepted_at: Date.parse(NOW),
      api: 'mm' as const,
      message: { ...cloudMessage(job, recipient), biz_opaque_callback_data: messageReference('mp1', 0, i) } as Record<string, unknown>,
    }));
    const block = { first: 0, size: 3, sendable: 3 };
    const lease = { holder: 'h', untilMs: Date.parse(NOW) + 60_000 };
    await world.blocks.claimBlock('mp1', block, lease, Date.parse(NOW));
    await world.blocks.settleBlock(
      'mp1',
      block,
      messages.map((m) => ({ kind: 'sent' as const, message_id: m.id })),
      lease,
    );
    const at = Date.parse(NOW) + 60_000;
    const statuses = messages.map((m) => {
      const pricing = world.emulator.pricing.pricingOf(m, at);
      world.emulator.pricing.book(m, pricing, at);
      return {
        kind: 'message_status' as const,
        message_id: m.id,
        status: 'delivered' as const,
        reference: String(m.message.biz_opaque_callback_data),
        at,
        waba_id: WABA,
        recipient: String(m.message.to),
        pricing,
      };
    });
    await applyMessageStatuses({ ...world, tiers: undefined, priceLists: world.priceLists }, statuses);
    const ledger = new TableCostLedger(world.sendTable, new MemoryCostLedger(() => at));
    const shown = await statement(
      {
        ledger,
        directory: world.directory,
        statements: new MemoryStatementStore(),
        priceLists: { lists: async () => [] },
        sha256: (text: string) => createHash('sha256').update(text, 'utf8').digest('hex'),
        issuer: { name: 'Acme Messaging Ltd', address: '1 Quay Street, Dublin' },
        now: () => at,
      },
      bspCaller(),
      { client_id: 7, month: '2026-11' },
    );
    // Assess
    const charged = world.emulator.pricing.delivered.filter((d) => d.max_price).map((d) => d.micros);
    const month = await world.budgets.month(7, '2026-11');
    const usd = shown.statements.find((s) => s.currency === 'USD');
    expect(accepted.estimate).toMatchObject({ currency: 'USD', amount: 0.075, max_price: { amount_per_1000: 25, currency: 'USD' } });
    expect(reservedAtAccept).toBe(75_000);
    expect(job.max_price).toEqual({ amount_per_1000: 25, currency: 'USD' });
    expect(messages[0].message.optimization_spec).toEqual({ bid_amount: 25 });
    expect(charged).toEqual([20_000, 20_000, 20_000]);
    expect(month).toMatchObject({ spent: 60_000, released: 75_000 });
    expect(usd?.lines).toEqual([
      expect.objectContaining({
        kind: 'charge',
        market: 'Mexico',
        category: MAX_PRICE_CATEGORY,
        unit_price: 20_000,
        messages: 3,
        billable: 3,
        amount: 0.06,
      }),
    ]);
  });

  it('refuses a max price in another currency than the WABA’s, on another category, or off the Marketing Messages API', async () => {
    // Prepare
    const euro = maxPriceSend({ amount_per_1000: 25, currency: 'EUR' });
    const cloud = maxPriceSend({ amount_per_1000: 25, currency: 'USD' });
    const offboarded = maxPriceSend({ amount_per_1000: 25, currency: 'USD' });
    offboarded.world.emulator.model.wabas.get(WABA)!.mm_onboarded = false;
    // Act
    const refusals = await Promise.all([
      sendTemplate(euro.deps, callerOf(7), { pathDid: DID, body: euro.body, sendId: 'e1' }).catch((e) => e),
      sendTemplate(cloud.deps, callerOf(7), { pathDid: DID, body: { ...cloud.body, marketing_api: 'cloud' }, sendId: 'c1' }).catch(
        (e) => e,
      ),
      sendTemplate(offboarded.deps, callerOf(7), { pathDid: DID, body: offboarded.body, sendId: 'o1' }).catch((e) => e),
    ]);
    // Assess
    expect(refusals.map((e) => [e.name, e.details?.[0]?.path])).toEqual([
      ['InvalidRequest', 'max_price.currency'],
      ['InvalidRequest', 'max_price'],
      ['InvalidRequest', 'max_price'],
    ]);
    expect(euro.world.sendTable.sends.size + cloud.world.sendTable.sends.size + offboarded.world.sendTable.sends.size).toBe(0);
  });
});
