import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statusChange, type MessageCharge } from '#lib/domain/shared/message-status.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { chargeOf } from '#lib/domain/money/pricing/charge.ts';
import { estimateOf } from '#lib/domain/money/pricing/estimate.ts';
import { type RateCard, RateCards } from '#lib/domain/money/pricing/rate-card.ts';
import { csvOf, wantsCsv } from '#lib/http/csv.ts';

/** What messages cost (decisions §24, §26): the rate card, a delivered message's charge, a send's estimate, the CSV. */
const JULY = Date.parse('2025-07-15T12:00:00Z');
const APRIL_2026 = Date.parse('2026-04-15T12:00:00Z');
const regions = { effective_from: '2025-07-01', sources: [], regions: { AR: 'Argentina', IN: 'India', AU: 'Other' } };

const card = (effective_from: string, marketing: number, currency = 'USD'): RateCard => ({
  effective_from,
  currency,
  sources: [],
  disagreements: [],
  markets: {
    Argentina: { marketing, utility: 0.02, authentication: 0.02 },
    India: { marketing: 0.01, utility: 0.0014, authentication: 0.0014, authentication_international: 0.028 },
    Other: { marketing: 0.06, utility: 0.007, authentication: 0.007 },
  },
  tiers: {
    Argentina: {
      utility: [
        { from: 0, to: 100, rate: 0.02 },
        { from: 101, to: null, rate: 0.015 },
      ],
    },
  },
  regions,
});

describe('the rate card (decisions §26)', () => {
  it('prices a day on the card in force that day: a new card never changes what an earlier day cost', () => {
    // Prepare
    const cards = new RateCards([card('2026-01-01', 0.07), card('2025-07-01', 0.06)]);
    // Act / Assess
    expect(cards.priceMicros('Argentina', 'marketing', '2025-12-31')).toBe(60_000);
    expect(cards.priceMicros('Argentina', 'marketing', '2026-01-01')).toBe(70_000);
    expect(cards.priceMicros('Argentina', 'marketing', '2024-01-01')).toBe(60_000);
  });

  it('places a number by its region (libphonenumber-js), then the region by the card', () => {
    // Prepare / Act / Assess
    expect(rateCards.placeOf('541155550000', '2025-07-15')).toEqual({ region: 'AR', market: 'Argentina' });
    expect(rateCards.placeOf('17875550000', '2025-07-15')).toEqual({ region: 'PR', market: 'Rest of Latin America' });
    expect(rateCards.placeOf('12025550123', '2025-07-15')).toEqual({ region: 'US', market: 'North America' });
    expect(rateCards.placeOf('5215550000', '2025-07-15').market).toBe('Mexico');
  });

  it('prices authentication-international at its own rate, and as authentication where the market has none', () => {
    // Prepare
    const cards = new RateCards([card('2025-07-01', 0.06)]);
    // Act / Assess
    expect(cards.priceMicros('India', 'authentication_international', '2025-07-15')).toBe(28_000);
    expect(cards.priceMicros('India', 'authentication', '2025-07-15')).toBe(1_400);
    expect(cards.priceMicros('Argentina', 'authentication_international', '2025-07-15')).toBe(20_000);
  });

  it('prices a currency on its own card, and on the base currency’s card, said so, where it has none', () => {
    // Prepare
    const cards = new RateCards([card('2025-07-01', 0.06), card('2025-07-01', 0.05, 'EUR')]);
    // Act / Assess
    expect(cards.inForce('2025-07-15', 'EUR')).toMatchObject({ card: { currency: 'EUR' }, currency_mismatch: false });
    expect(cards.priceMicros('Argentina', 'marketing', '2025-07-15', 'EUR')).toBe(50_000);
    expect(cards.inForce('2025-07-15', 'BRL')).toMatchObject({ card: { currency: 'USD' }, currency_mismatch: true });
  });

  it('prices by the month’s volume where the card gives tiers: the 101st message at the next tier', () => {
    // Prepare
    const cards = new RateCards([card('2025-07-01', 0.06)]);
    // Act / Assess
    expect(cards.priceMicros('Argentina', 'utility', '2025-07-15', 'USD', 99)).toBe(20_000);
    expect(cards.priceMicros('Argentina', 'utility', '2025-07-15', 'USD', 100)).toBe(15_000);
    expect(cards.priceMicros('Argentina', 'utility', '2025-07-15', 'USD')).toBe(20_000);
  });
});

describe('a delivered message’s charge (decisions §26)', () => {
  it('costs the card’s price when billable and nothing when free', () => {
    // Prepare / Act
    const billable = chargeOf(rateCards, { category: 'marketing', type: 'regular', billable: true }, '541155550000', JULY);
    const free = chargeOf(rateCards, { category: 'utility', type: 'free_customer_service', billable: false }, '541155550000', JULY);
    const entry = chargeOf(rateCards, { category: 'marketing', type: 'free_entry_point', billable: true }, '541155550000', JULY);
    const service = chargeOf(rateCards, { category: 'service', type: 'regular', billable: false }, '541155550000', JULY);
    // Assess
    expect(billable).toMatchObject({ market: 'Argentina', micros: 61_800, currency: 'USD' });
    expect(free.micros).toBe(0);
    expect(entry.micros).toBe(0);
    expect(service.micros).toBe(0);
  });

  it('charges authentication-international at its own rate, either spelling, named one way', () => {
    // Prepare / Act
    const underscore = chargeOf(
      rateCards,
      { category: 'authentication_international', type: 'regular', billable: true },
      '919876543210',
      JULY,
    );
    const hyphen = chargeOf(rateCards, { category: 'authentication-international', type: 'regular', billable: true }, '919876543210', JULY);
    const domestic = chargeOf(rateCards, { category: 'authentication', type: 'regular', billable: true }, '919876543210', JULY);
    // Assess
    const day = '2025-07-15';
    expect(underscore.micros).toBe(rateCards.priceMicros('India', 'authentication_international', day));
    expect(underscore.micros).toBeGreaterThan(domestic.micros);
    expect(hyphen).toEqual(underscore);
    expect(hyphen.pricing.category).toBe('authentication_international');
  });

  it('crosses a volume tier mid-month: the messages after it cost the new tier’s rate (the April 2026 card)', () => {
    // Prepare: Brazil's utility tiers on the card in force in April 2026, the month's count given by the ledger
    const tiers = rateCards.on('2026-04-15').tiers!.Brazil.utility!;
    const first = tiers[0];
    const utility = { category: 'utility', type: 'regular', billable: true };
    let volume = first.to! - 2;
    const counted = { volumeBefore: () => volume++ };
    // Act: three messages, the month's last two of the first tier and the first of the second
    const charges = [1, 2, 3].map(() => chargeOf(rateCards, utility, '5511987654321', APRIL_2026, counted).micros);
    // Assess
    expect(charges).toEqual([first.rate, first.rate, tiers[1].rate].map((rate) => Math.round(rate * 1e6)));
    expect(tiers[1].rate).toBeLessThan(first.rate);
  });

  it('prices a `service` message at the list rate past the utility bands, and counts it toward none (October 2026)', () => {
    // Prepare: Brazil's utility bands on the October 2026 card, the month far past the first band
    const at = Date.parse('2026-10-15T12:00:00Z');
    const tiers = rateCards.on('2026-10-15').tiers!.Brazil.utility!;
    let asked = 0;
    const counted = {
      volumeBefore: () => {
        asked++;
        return tiers[1].from + 1;
      },
    };
    // Act
    const service = chargeOf(rateCards, { category: 'service', type: 'regular', billable: true }, '5511987654321', at, counted);
    const utility = chargeOf(rateCards, { category: 'utility', type: 'regular', billable: true }, '5511987654321', at, counted);
    // Assess: service at the list rate without asking the count; utility at the second band
    expect(service.micros).toBe(Math.round(tiers[0].rate * 1e6));
    expect(utility.micros).toBe(Math.round(tiers[1].rate * 1e6));
    expect(asked).toBe(1);
  });

  it('is charged once whatever order and repeats the statuses come in (delivered, read, a failure between)', () => {
    const charge: MessageCharge = {
      pricing: { category: 'marketing', type: 'regular', billable: true },
      market: 'Argentina',
      micros: 61_800,
      currency: 'USD',
    };
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            report: fc.constantFrom('sent', 'delivered', 'read', 'failed') as fc.Arbitrary<'sent' | 'delivered' | 'read' | 'failed'>,
            priced: fc.boolean(),
          }),
          { maxLength: 12 },
        ),
        (reports) => {
          // Prepare / Act: each report applied in turn, as the store does; some statuses without their pricing
          let state = {};
          let charged = 0;
          for (const { report, priced } of reports) {
            const change = statusChange(state, report, undefined, report === 'failed' || !priced ? undefined : charge);
            if (!change) continue;
            if (change.charge) charged += change.charge.micros;
            state = change.next;
          }
          // Assess: charged once when a delivery (or a read) came with or after its pricing, never otherwise
          const priced = reports.some((r) => (r.report === 'delivered' || r.report === 'read') && r.priced);
          expect(charged).toBe(priced ? 61_800 : 0);
        },
      ),
    );
  });

  it('charges a delivered message whose `delivered` status had no pricing when the `read` brings it', () => {
    // Prepare
    const charge: MessageCharge = {
      pricing: { category: 'utility', type: 'regular', billable: true },
      market: 'Mexico',
      micros: 8_500,
      currency: 'USD',
    };
    const delivered = statusChange({}, 'delivered')!;
    // Act
    const read = statusChange(delivered.next, 'read', undefined, charge)!;
    // Assess
    expect(delivered.charge).toBeUndefined();
    expect(read.charge?.micros).toBe(8_500);
    expect(read.counts).toEqual({ read: 1 });
  });

  it('takes back an unknown outcome’s failure and charges it when Meta reports the message delivered', () => {
    // Prepare: a launch without an answer in time, then Meta's delivered status for it
    const charge: MessageCharge = {
      pricing: { category: 'utility', type: 'regular', billable: true },
      market: 'Mexico',
      micros: 8_500,
      currency: 'USD',
    };
    const unknown = { failed: { code: 'outcome_unknown', title: 'No answer from the upstream in time' } };
    // Act
    const change = statusChange(unknown, 'delivered', undefined, charge)!;
    // Assess
    expect(change.counts).toEqual({ delivered: 1, sent: 1, failed: -1 });
    expect(change.errors).toEqual([{ ...unknown.failed, count: -1 }]);
    expect(change.charge?.micros).toBe(8_500);
  });
});

describe('a send’s estimate (decisions §26)', () => {
  it('prices the unique recipients by market at the template’s category', () => {
    // Prepare: a repeat of an Argentine number
    const recipients = ['541155550000', '541155550000', '61455550000', '5215550000'];
    // Act
    const estimate = estimateOf(rateCards, recipients, 'MARKETING', JULY);
    // Assess
    const price = (market: string) => rateCards.priceMicros(market, 'marketing', '2025-07-15') / 1e6;
    expect(estimate.by_market).toEqual({
      Argentina: { messages: 1, amount: price('Argentina') },
      Mexico: { messages: 1, amount: price('Mexico') },
      'Rest of Asia Pacific': { messages: 1, amount: price('Rest of Asia Pacific') },
    });
    expect(estimate).toMatchObject({ currency: 'USD', rate_card: 'meta-2025-07-01-USD' });
    expect(estimate.micros).toBe(Math.round((price('Argentina') + price('Mexico') + price('Rest of Asia Pacific')) * 1e6));
  });

  it('is in the WABA’s currency where a card exists in it, and says so where none does', () => {
    // Prepare / Act
    const euro = estimateOf(rateCards, ['4915112345678'], 'MARKETING', Date.parse('2026-07-15T00:00:00Z'), 'EUR');
    const real = estimateOf(rateCards, ['4915112345678'], 'MARKETING', Date.parse('2026-07-15T00:00:00Z'), 'BRL');
    // Assess
    expect(euro).toMatchObject({ currency: 'EUR', rate_card: 'meta-2026-07-01-EUR' });
    expect(euro.currency_mismatch).toBeUndefined();
    expect(real).toMatchObject({ currency: 'USD', currency_mismatch: true });
  });
});

describe('CSV (decisions §24)', () => {
  it('writes a header row, a line a row, quoted cells where needed and amounts with their decimals', () => {
    // Prepare
    const spec = { columns: ['market', 'messages', 'amount'], decimals: { amount: 4 } };
    // Act
    const csv = csvOf(
      [
        { market: 'Rest of "Central", & Eastern Europe', messages: 2, amount: 0.172 },
        { messages: 0, amount: 0 },
      ],
      spec,
    );
    // Assess
    expect(csv).toBe('market,messages,amount\r\n"Rest of ""Central"", & Eastern Europe",2,0.1720\r\n,0,0.0000\r\n');
  });

  it('answers CSV only when the Accept header prefers it', () => {
    // Prepare / Act / Assess
    expect(wantsCsv('text/csv')).toBe(true);
    // JSON's q=1 outweighs CSV's 0.9, whatever the order (issue 51: the header's q-values decide).
    expect(wantsCsv('text/csv;q=0.9, application/json')).toBe(false);
    expect(wantsCsv('application/json, text/csv')).toBe(false);
    expect(wantsCsv(undefined)).toBe(false);
  });
});

describe('a held message (decisions §25)', () => {
  it('is no longer held once Meta delivers or drops it, counted out of held once whatever comes after', () => {
    // Prepare
    const held = { held: true };
    // Act
    const delivered = statusChange(held, 'delivered')!;
    const dropped = statusChange(held, 'failed', { code: '132015', title: 'Dropped' })!;
    const readAfter = statusChange(delivered.next, 'read')!;
    // Assess
    expect(delivered.counts).toEqual({ delivered: 1, held: -1 });
    expect(delivered.next.held).toBeUndefined();
    expect(dropped.counts).toEqual({ sent: -1, failed: 1, held: -1 });
    expect(readAfter.counts).toEqual({ read: 1 });
  });
});
