import { describe, expect, it } from 'vitest';
import { notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';
import { KeptBillingCurrencies } from '#lib/domain/money/billing-currencies.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { chargeOf } from '#lib/domain/money/pricing/charge.ts';
import type { BillingCurrencies } from '#lib/domain/money/ports.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { messageReference } from '#lib/domain/shared/message-status.ts';
import { applyMessageStatuses, type MessageStatusNotification } from '#lib/domain/sends/message-statuses.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { MemoryKnownCurrencies } from '../../support/memory/money/known-currencies.ts';
import { MemoryOutsideCharges } from '../../support/memory/money/outside-charges.ts';
import { claimedSendOfSeven } from '../../support/memory/sends/claimed-send.ts';
import { memoryWorld } from '../../support/memory/world.ts';

/** The status path of issue 51 (decisions §30): every status counts once, without Graph, and nothing goes unbilled. */
const WABA = '100200300';
const DID = '5215550001';
const MEXICO = '5215512345678';
const AUGUST = Date.parse('2026-08-10T12:00:00Z');
const NOVEMBER = Date.parse('2026-11-10T12:00:00Z');
const marketing = { category: 'marketing', type: 'regular', billable: true };
const failingGraph: BillingCurrencies = {
  currencyOf: async () => {
    throw new Error('Graph unavailable');
  },
};
const block = { first: 0, size: 2, sendable: 2 };

/** A send of two to Mexico on the demo's number of client 7, its block claimed. */
async function claimedSend() {
  const world = memoryWorld();
  const lease = await claimedSendOfSeven(world, block);
  const deps = { ...world, currencies: undefined, tiers: undefined, priceLists: undefined };
  return { world, deps, lease };
}

const delivered = (index: number, at = AUGUST): MessageStatusNotification => ({
  kind: 'message_status',
  message_id: `wamid.${index}`,
  status: 'delivered',
  reference: messageReference('s1', 0, index),
  at,
  waba_id: WABA,
  recipient: MEXICO,
  pricing: marketing,
});

const marketingRate = (currency?: string) => chargeOf(rateCards, marketing, MEXICO, AUGUST, { currency }).micros;

describe('statuses of a block handed back mid-send (decisions §30)', () => {
  it('are applied from its recorded answers: counted and charged once, and the settlement after keeps the counts', async () => {
    // Prepare: the template paused mid-block; the block handed back open with its first message's answer
    const { world, deps, lease } = await claimedSend();
    await world.blocks.handBack('s1', block, lease, new Map([[0, { kind: 'sent', message_id: 'wamid.0' }]]));
    // Act
    const first = await applyMessageStatuses(deps, [delivered(0), delivered(1)]);
    const repeat = await applyMessageStatuses(deps, [delivered(0)]);
    const later = { holder: 'h2', untilMs: Date.now() + 60_000 };
    await world.blocks.claimBlock('s1', block, later, Date.now());
    const sent = [0, 1].map((i) => ({ kind: 'sent' as const, message_id: `wamid.${i}` }));
    await world.blocks.settleBlock('s1', block, sent, later);
    const afterSettling = await applyMessageStatuses(deps, [delivered(1)]);
    // Assess: the message not answered yet came back later; nothing counted or charged twice
    expect([...first, ...repeat, ...afterSettling]).toEqual(['applied', 'later', 'unchanged', 'applied']);
    expect((await world.sends.get('s1'))?.counts).toMatchObject({ sent: 2, delivered: 2, failed: 0 });
    expect(Object.values(world.sendTable.ledger)).toEqual([{ messages: 2, billable: 2, micros: 2 * marketingRate() }]);
  });

  it('are applied while the block is still claimed, from the progress its holder recorded', async () => {
    // Prepare
    const { world, deps, lease } = await claimedSend();
    await world.blocks.recordProgress('s1', block, lease, {
      outcomes: new Map([[0, { kind: 'sent', message_id: 'wamid.0' }]]),
      launchedTo: 2,
    });
    // Act
    const outcomes = await applyMessageStatuses(deps, [delivered(0), { ...delivered(0), message_id: 'wamid.other' }]);
    // Assess: a status of another message id is not this position's
    expect(outcomes).toEqual(['applied', 'ignored']);
    expect(world.sendTable.messages.get('s1|0')).toMatchObject({ delivered: true, cost_micros: marketingRate() });
  });
});

describe('the billing currency on the status path (decisions §30)', () => {
  it('applies a batch with the currency read failing and none known: priced in the base currency, marked', async () => {
    // Prepare
    const { world, deps, lease } = await claimedSend();
    await world.blocks.settleBlock('s1', block, [{ kind: 'sent', message_id: 'wamid.0' }, { kind: 'expired' }], lease);
    const known = new MemoryKnownCurrencies();
    const currencies = new KeptBillingCurrencies({ known, upstream: failingGraph, log: silentLog });
    // Act
    const outcomes = await applyMessageStatuses({ ...deps, currencies }, [delivered(0)]);
    // Assess
    expect(outcomes).toEqual(['applied']);
    expect((await world.sends.get('s1'))?.counts).toMatchObject({ delivered: 1 });
    expect(world.sendTable.messages.get('s1|0')?.cost_micros).toBe(marketingRate());
    expect(known.currencies.size).toBe(0);
  });

  it('learns a WABA’s currency when first seen, and uses the last known one when a daily refresh fails', async () => {
    // Prepare: Graph answers EUR once, then fails
    const known = new MemoryKnownCurrencies();
    let answers = 0;
    const graph: BillingCurrencies = {
      currencyOf: async () => {
        answers += 1;
        if (answers > 1) throw new Error('Graph unavailable');
        return 'EUR';
      },
    };
    let now = AUGUST;
    const first = new KeptBillingCurrencies({ known, upstream: graph, log: silentLog, now: () => now });
    // Act: first seen; then two days later, in another process, with Graph failing
    const learned = await first.currencyOf(WABA);
    now += 2 * 86_400_000;
    const refreshed = await new KeptBillingCurrencies({ known, upstream: graph, log: silentLog, now: () => now }).currencyOf(WABA);
    // Assess
    expect([learned, refreshed, answers]).toEqual(['EUR', 'EUR', 2]);
    expect(known.currencies.get(WABA)).toEqual({ currency: 'EUR', learned_at: new Date(AUGUST).toISOString() });
  });

  it('prices the status in the kept currency without asking Graph', async () => {
    // Prepare: the currency learned an hour ago, Graph failing
    const { world, deps, lease } = await claimedSend();
    await world.blocks.settleBlock('s1', block, [{ kind: 'sent', message_id: 'wamid.0' }, { kind: 'expired' }], lease);
    const known = new MemoryKnownCurrencies();
    await known.put(WABA, 'EUR', new Date(Date.now() - 3_600_000).toISOString());
    const currencies = new KeptBillingCurrencies({ known, upstream: failingGraph, log: silentLog });
    // Act
    await applyMessageStatuses({ ...deps, currencies }, [delivered(0)]);
    // Assess
    expect(world.sendTable.messages.get('s1|0')?.cost_micros).toBe(marketingRate('EUR'));
    expect(marketingRate('EUR')).not.toBe(marketingRate());
  });
});

describe('billable from Meta’s pricing type where `billable` is absent (decisions §30)', () => {
  it('charges `regular` and leaves `free_*` free', () => {
    // Act
    const regular = chargeOf(rateCards, { category: 'marketing', type: 'regular' }, MEXICO, AUGUST);
    const free = chargeOf(rateCards, { category: 'service', type: 'free_customer_service' }, MEXICO, NOVEMBER);
    // Assess
    expect([regular.pricing.billable, regular.micros]).toEqual([true, marketingRate()]);
    expect([free.pricing.billable, free.micros]).toEqual([false, 0]);
  });

  it('is left to the domain by the webhook payload: a status without `billable` carries none', () => {
    // Prepare
    const value = {
      metadata: { display_phone_number: '+52 1 555 0001', phone_number_id: '110001' },
      statuses: [
        {
          id: 'wamid.9',
          status: 'delivered',
          timestamp: '1786363200',
          recipient_id: MEXICO,
          pricing: { category: 'service', type: 'regular' },
        },
      ],
    };
    // Act
    const [status] = notificationsOf({ field: 'messages', waba_id: WABA, at: AUGUST, value });
    // Assess
    expect(status).toMatchObject({ kind: 'message_status', number_digits: DID, phone_number_id: '110001' });
    expect((status as MessageStatusNotification).pricing).toEqual({ category: 'service', type: 'regular' });
  });
});

describe('charges of messages sent elsewhere on a client’s number (decisions §30)', () => {
  const reply = (message_id: string, digits = DID): MessageStatusNotification => ({
    kind: 'message_status',
    message_id,
    status: 'delivered',
    at: NOVEMBER,
    waba_id: WABA,
    number_digits: digits,
    phone_number_id: digits === DID ? '110001' : undefined,
    recipient: MEXICO,
    pricing: { category: 'service', type: 'regular' },
  });

  it('charges the number’s client once, at the utility rate for a service message, marked `outside`', async () => {
    // Prepare
    const world = memoryWorld();
    const ledger = new MemoryCostLedger();
    const outside = { outsideCharges: new MemoryOutsideCharges(ledger), directory: world.directory };
    const deps = { ...world, currencies: undefined, tiers: undefined, priceLists: undefined, outside };
    const utility = chargeOf(rateCards, { category: 'utility', type: 'regular' }, MEXICO, NOVEMBER).micros;
    // Act: the same status twice, and one on a number no client owns
    const outcomes = await applyMessageStatuses(deps, [reply('wamid.x'), reply('wamid.x'), reply('wamid.y', '5219999999')]);
    // Assess
    expect(outcomes).toEqual(['applied', 'unchanged', 'ignored']);
    expect(utility).toBeGreaterThan(0);
    expect(ledger.entries).toEqual([
      {
        waba_id: WABA,
        client_id: 7,
        entry: expect.objectContaining({ did: DID, category: 'service', messages: 1, billable: 1, micros: utility, origin: 'outside' }),
      },
    ]);
  });

  it('ignores them where no store for them is wired, as before', async () => {
    // Prepare
    const world = memoryWorld();
    const deps = { ...world, currencies: undefined, tiers: undefined, priceLists: undefined };
    // Act
    const outcomes = await applyMessageStatuses(deps, [reply('wamid.x')]);
    // Assess
    expect(outcomes).toEqual(['ignored']);
  });
});
