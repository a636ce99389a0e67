import { describe, expect, it } from 'vitest';
import { billingOfWaba, KeptBillingCurrencies } from '#lib/domain/money/billing-currencies.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { chargeOf } from '#lib/domain/money/pricing/charge.ts';
import { estimateOf } from '#lib/domain/money/pricing/estimate.ts';
import { reservationFor } from '#lib/domain/money/pricing/reservation.ts';
import type { BillingCurrencies, MetaCostEntry } from '#lib/domain/money/ports.ts';
import { reconcileCosts } from '#lib/domain/money/reconcile-costs.ts';
import type { Log } from '#lib/domain/shared/log.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { messageReference } from '#lib/domain/shared/message-status.ts';
import { applyMessageStatuses, type MessageStatusNotification } from '#lib/domain/sends/message-statuses.ts';
import { MemoryCostLedger } from '../../support/memory/money/cost-ledger.ts';
import { MemoryKnownCurrencies } from '../../support/memory/money/known-currencies.ts';
import { MemoryOutsideCharges } from '../../support/memory/money/outside-charges.ts';
import { MemoryReconciliationStore } from '../../support/memory/money/reconciliation-store.ts';
import { claimedSendOfSeven } from '../../support/memory/sends/claimed-send.ts';
import { memoryWorld } from '../../support/memory/world.ts';

/**
 * The WABA's clock (decisions §31, issue 53 item 3): a message is charged on its WABA's day, at the card in force
 * that day, on that ledger day and budget month. The demo's WABA 100200300 (client 7's number 5215550001).
 */
const WABA = '100200300';
const DID = '5215550001';
const MEXICO = '5215512345678';
/** 20:00 UTC on the last of September: already 1 October in India (+05:30). */
const LATE_SEPTEMBER = Date.parse('2026-09-30T20:00:00Z');
const INDIA = '71';
const UTC = '474';
const marketing = { category: 'marketing', type: 'regular', billable: true };
const block = { first: 0, size: 1, sendable: 1 };

/** Graph as the emulator answers `fields=currency,timezone_id`: USD, in the given timezone. */
const graphIn = (timezoneId: string | undefined): BillingCurrencies => ({
  currencyOf: async () => 'USD',
  billingFieldsOf: async () => ({ currency: 'USD', ...(timezoneId !== undefined && { timezone_id: timezoneId }) }),
});

/** A log that keeps its warnings. */
function keptLog() {
  const warnings: { message: string; fields: Record<string, unknown> }[] = [];
  const log: Log = { ...silentLog, warn: (message, fields) => warnings.push({ message, fields }) };
  return { log, warnings };
}

/** A send of one to Mexico on client 7's number, sent; its WABA's billing read from Graph in the given timezone. */
async function sentMessage(timezoneId: string) {
  const world = memoryWorld();
  const lease = await claimedSendOfSeven(world, block);
  await world.blocks.settleBlock('s1', block, [{ kind: 'sent', message_id: 'wamid.0' }], lease);
  const currencies = new KeptBillingCurrencies({ known: new MemoryKnownCurrencies(), upstream: graphIn(timezoneId), log: silentLog });
  return { world, deps: { ...world, currencies, tiers: undefined, priceLists: undefined } };
}

const delivered: MessageStatusNotification = {
  kind: 'message_status',
  message_id: 'wamid.0',
  status: 'delivered',
  reference: messageReference('s1', 0, 0),
  at: LATE_SEPTEMBER,
  waba_id: WABA,
  recipient: MEXICO,
  pricing: marketing,
};

/** Mexico's marketing rate on a day of the USD cards. */
const rateOn = (day: string) => chargeOf(rateCards, marketing, MEXICO, Date.parse(`${day}T12:00:00Z`)).micros;

describe('the charge day is the WABA’s (decisions §31)', () => {
  it('charges a +05:30 WABA’s message of 20:00 UTC on 30 September on 1 October: October’s card, ledger day and month', async () => {
    // Prepare
    const { world, deps } = await sentMessage(INDIA);
    // Act
    await applyMessageStatuses(deps, [delivered]);
    // Assess
    expect(rateOn('2026-10-01')).not.toBe(rateOn('2026-09-30'));
    expect(world.sendTable.messages.get('s1|0')?.cost_micros).toBe(rateOn('2026-10-01'));
    expect(Object.keys(world.sendTable.ledger).map((key) => key.split('|').slice(0, 2))).toEqual([[WABA, '2026-10-01']]);
    expect([...world.budgets.months.keys()].filter((key) => key.startsWith('7|'))).toEqual(['7|2026-10']);
  });

  it('charges a UTC WABA’s same message on 30 September, on September’s card', async () => {
    // Prepare
    const { world, deps } = await sentMessage(UTC);
    // Act
    await applyMessageStatuses(deps, [delivered]);
    // Assess
    expect(world.sendTable.messages.get('s1|0')?.cost_micros).toBe(rateOn('2026-09-30'));
    expect(Object.keys(world.sendTable.ledger).map((key) => key.split('|').slice(0, 2))).toEqual([[WABA, '2026-09-30']]);
    expect([...world.budgets.months.keys()].filter((key) => key.startsWith('7|'))).toEqual(['7|2026-09']);
  });

  it('dates a message sent elsewhere on the number by the WABA’s day too', async () => {
    // Prepare: a reply in the service window, sent outside the service, delivered at the same instant
    const world = memoryWorld();
    const ledger = new MemoryCostLedger();
    const outside = { outsideCharges: new MemoryOutsideCharges(ledger), directory: world.directory };
    const currencies = new KeptBillingCurrencies({ known: new MemoryKnownCurrencies(), upstream: graphIn(INDIA), log: silentLog });
    const reply: MessageStatusNotification = {
      ...delivered,
      reference: undefined,
      message_id: 'wamid.reply',
      number_digits: DID,
      phone_number_id: '110001',
    };
    // Act
    await applyMessageStatuses({ ...world, currencies, tiers: undefined, priceLists: undefined, outside }, [reply]);
    // Assess
    expect(ledger.entries.map(({ entry }) => [entry.day, entry.micros])).toEqual([['2026-10-01', rateOn('2026-10-01')]]);
  });
});

describe('the WABA’s timezone learned with its currency (decisions §30, §31)', () => {
  it('keeps Meta’s timezone id beside the currency and counts the WABA’s days in its zone', async () => {
    // Prepare
    const known = new MemoryKnownCurrencies();
    const currencies = new KeptBillingCurrencies({ known, upstream: graphIn(INDIA), log: silentLog, now: () => LATE_SEPTEMBER });
    // Act
    const billing = await currencies.billingOf(WABA);
    // Assess
    expect(billing).toEqual({ currency: 'USD', zone: 'Asia/Kolkata' });
    expect(known.currencies.get(WABA)).toEqual({ currency: 'USD', timezone_id: INDIA, learned_at: new Date(LATE_SEPTEMBER).toISOString() });
    expect(await currencies.currencyOf(WABA)).toBe('USD');
  });

  it('counts a WABA of an unknown timezone id in UTC, and logs the id once', async () => {
    // Prepare
    const { log, warnings } = keptLog();
    const currencies = new KeptBillingCurrencies({ known: new MemoryKnownCurrencies(), upstream: graphIn('9999'), log });
    // Act
    const twice = [await currencies.billingOf(WABA), await currencies.billingOf(WABA)];
    // Assess
    expect(twice).toEqual([
      { currency: 'USD', zone: 'UTC' },
      { currency: 'USD', zone: 'UTC' },
    ]);
    expect(warnings).toEqual([{ message: expect.stringContaining('timezone id unknown'), fields: { waba_id: WABA, timezone_id: '9999' } }]);
  });

  it('reads Graph again for a WABA kept before its timezone was, and keeps a learned one when a source reads only the currency', async () => {
    // Prepare: a currency kept an hour ago, without a timezone
    const known = new MemoryKnownCurrencies();
    await known.put(WABA, 'USD', new Date(LATE_SEPTEMBER - 3_600_000).toISOString());
    const now = () => LATE_SEPTEMBER;
    const statusPath = new KeptBillingCurrencies({ known, upstream: graphIn(INDIA), log: silentLog, now });
    // Act: the status path learns the timezone; a day later a currency-only source refreshes the currency
    const learned = await statusPath.billingOf(WABA);
    const later = () => LATE_SEPTEMBER + 2 * 86_400_000;
    const currencyOnly = new KeptBillingCurrencies({ known, upstream: { currencyOf: async () => 'USD' }, log: silentLog, now: later });
    await currencyOnly.currencyOf(WABA);
    // Assess
    expect(learned.zone).toBe('Asia/Kolkata');
    expect(known.currencies.get(WABA)?.timezone_id).toBe(INDIA);
    expect(await billingOfWaba({ currencyOf: async () => 'EUR' }, WABA)).toEqual({ currency: 'EUR', zone: 'UTC' });
    expect(await billingOfWaba(graphIn('145'), WABA)).toEqual({ currency: 'USD', zone: 'Asia/Kathmandu' });
  });
});

describe('the estimate, the reservation and Meta’s days in the WABA’s zone (decisions §31)', () => {
  it('estimates and reserves a send going at 20:00 UTC on 30 September on India’s 1 October', () => {
    // Act
    const inIndia = estimateOf(rateCards, [MEXICO], 'MARKETING', LATE_SEPTEMBER, 'USD', 'Asia/Kolkata');
    const inUtc = estimateOf(rateCards, [MEXICO], 'MARKETING', LATE_SEPTEMBER, 'USD');
    const reservation = reservationFor('MARKETING', new Date(LATE_SEPTEMBER).toISOString(), 'USD', undefined, undefined, 'Asia/Kolkata');
    // Assess
    expect([inIndia.rate_card, inIndia.micros]).toEqual(['meta-2026-10-01-USD', rateOn('2026-10-01')]);
    expect(inUtc.rate_card).toBe('meta-2026-07-01-USD');
    expect([reservation.month, reservation.priced_on]).toEqual(['2026-10', '2026-10-01']);
  });

  it('reads an India WABA’s pricing_analytics day from its 00:00 there to the next day’s', async () => {
    // Prepare: a run on 3 October reads 30 September to 2 October
    const world = memoryWorld();
    const windows: [string, string][] = [];
    const upstream = {
      pricingAnalytics: async (_waba: string, start: number, end: number): Promise<MetaCostEntry[]> => {
        windows.push([new Date(start * 1000).toISOString(), new Date(end * 1000).toISOString()]);
        // Graph's adapter names a point by the UTC day of its start: India's 1 October starts on 30 September.
        return [
          {
            day: new Date(start * 1000).toISOString().slice(0, 10),
            phone_number: DID,
            country: 'MX',
            category: 'marketing',
            volume: 1,
            micros: 1_000,
          },
        ];
      },
    };
    const ledger = new MemoryCostLedger();
    const deps = {
      ledger,
      reconciliation: new MemoryReconciliationStore(),
      directory: world.directory,
      upstream,
      currencies: graphIn(INDIA),
      log: silentLog,
    };
    // Act
    await reconcileCosts(deps, '2026-10-03T06:00:00.000Z');
    // Assess: the demo's WABAs, each read day by day in India's clock
    expect(new Set(windows.map((w) => w.join(' → ')))).toEqual(
      new Set([
        '2026-09-29T18:30:00.000Z → 2026-09-30T18:30:00.000Z',
        '2026-09-30T18:30:00.000Z → 2026-10-01T18:30:00.000Z',
        '2026-10-01T18:30:00.000Z → 2026-10-02T18:30:00.000Z',
      ]),
    );
    expect(ledger.meta.get(`${WABA}|2026-10-01`)?.entries.map((entry) => entry.day)).toEqual(['2026-10-01']);
  });
});
