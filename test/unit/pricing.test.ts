import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveryChange, type MessageCharge } from '#lib/domain/delivery.ts';
import { rateCards } from '#lib/domain/pricing/cards/index.ts';
import { chargeOf } from '#lib/domain/pricing/charge.ts';
import { estimateOf } from '#lib/domain/pricing/estimate.ts';
import { type RateCard, RateCards } from '#lib/domain/pricing/rate-card.ts';
import { csvOf, wantsCsv } from '#lib/http/csv.ts';

/** What messages cost (decisions §24): the rate card, a delivered message's charge, a send's estimate, the CSV. */
const JULY = Date.parse('2025-07-15T12:00:00Z');

const card = (effective_from: string, marketing: number): RateCard => ({
  effective_from,
  currency: 'USD',
  source: { title: 'test', url: 'https://example.com', taken_on: effective_from },
  markets: {
    Argentina: { marketing, utility: 0.02 },
    India: { authentication: 0.0014, 'authentication-international': 0.028 },
    Other: { marketing: 0.06, utility: 0.007, authentication: 0.007 },
  },
  calling_codes: { '54': { country: 'AR', market: 'Argentina' }, '91': { country: 'IN', market: 'India' } },
});

describe('the rate card (decisions §24)', () => {
  it('prices a day on the card in force that day: a new card never changes what an earlier day cost', () => {
    // Prepare
    const cards = new RateCards([card('2026-01-01', 0.07), card('2025-07-01', 0.06)]);
    // Act / Assess
    expect(cards.priceMicros('Argentina', 'marketing', '2025-12-31')).toBe(60_000);
    expect(cards.priceMicros('Argentina', 'marketing', '2026-01-01')).toBe(70_000);
    expect(cards.priceMicros('Argentina', 'marketing', '2024-01-01')).toBe(60_000);
  });

  it('places a number by its calling code, longest first, and prices what the card does not map as Other', () => {
    // Prepare / Act / Assess
    expect(rateCards.placeOf('541155550000', '2025-07-15')).toEqual({ country: 'AR', market: 'Argentina' });
    expect(rateCards.placeOf('12685550000', '2025-07-15')).toEqual({ country: 'AG', market: 'Rest of Latin America' });
    expect(rateCards.placeOf('5215550000', '2025-07-15').market).toBe('Other');
  });

  it('prices authentication-international as authentication where the market has no such rate', () => {
    // Prepare
    const cards = new RateCards([card('2025-07-01', 0.06)]);
    // Act / Assess
    expect(cards.priceMicros('India', 'authentication-international', '2025-07-15')).toBe(28_000);
    expect(cards.priceMicros('Argentina', 'authentication-international', '2025-07-15')).toBe(
      cards.priceMicros('Other', 'authentication', '2025-07-15'),
    );
  });
});

describe('a delivered message’s charge (decisions §24)', () => {
  it('costs the card’s price when billable and nothing when free', () => {
    // Prepare / Act
    const billable = chargeOf(rateCards, { category: 'marketing', type: 'regular', billable: true }, '541155550000', JULY);
    const free = chargeOf(rateCards, { category: 'utility', type: 'free_customer_service', billable: false }, '541155550000', JULY);
    const service = chargeOf(rateCards, { category: 'service', type: 'regular', billable: true }, '541155550000', JULY);
    // Assess
    expect(billable).toMatchObject({ market: 'Argentina', micros: 61_800 });
    expect(free.micros).toBe(0);
    expect(service.micros).toBe(0);
  });

  it('is charged once whatever order and repeats the statuses come in (delivered, read, a failure between)', () => {
    const charge: MessageCharge = {
      pricing: { category: 'marketing', type: 'regular', billable: true },
      market: 'Argentina',
      micros: 61_800,
    };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('sent', 'delivered', 'read', 'failed') as fc.Arbitrary<'sent' | 'delivered' | 'read' | 'failed'>, {
          maxLength: 12,
        }),
        (reports) => {
          // Prepare / Act: each report applied in turn, as the store does
          let state = {};
          let charged = 0;
          for (const report of reports) {
            const change = deliveryChange(state, report, undefined, report === 'failed' ? undefined : charge);
            if (!change) continue;
            if (change.charge) charged += change.charge.micros;
            state = change.next;
          }
          // Assess: charged once when a delivery (or a read) came, never otherwise
          const reached = reports.some((r) => r === 'delivered' || r === 'read');
          expect(charged).toBe(reached ? 61_800 : 0);
        },
      ),
    );
  });
});

describe('a send’s estimate (decisions §24)', () => {
  it('prices the unique recipients by market at the template’s category', () => {
    // Prepare: a repeat of an Argentine number, written differently
    const recipients = ['541155550000', '541155550000', '61455550000', '5215550000'];
    // Act
    const estimate = estimateOf(rateCards, recipients, 'MARKETING', JULY);
    // Assess
    expect(estimate.by_market).toEqual({
      Argentina: { messages: 1, amount: 0.0618 },
      Other: { messages: 1, amount: 0.0604 },
      'Rest of Asia Pacific': { messages: 1, amount: 0.0732 },
    });
    expect(estimate).toMatchObject({ currency: 'USD', amount: 0.1954, rate_card: '2025-07-01', micros: 195_400 });
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
    expect(wantsCsv('text/csv;q=0.9, application/json')).toBe(true);
    expect(wantsCsv('application/json, text/csv')).toBe(false);
    expect(wantsCsv(undefined)).toBe(false);
  });
});

describe('a held message (decisions §25)', () => {
  it('is no longer held once Meta delivers or drops it, counted out of held once whatever comes after', () => {
    // Prepare
    const held = { held: true };
    // Act
    const delivered = deliveryChange(held, 'delivered')!;
    const dropped = deliveryChange(held, 'failed', { code: '132015', title: 'Dropped' })!;
    const readAfter = deliveryChange(delivered.next, 'read')!;
    // Assess
    expect(delivered.counts).toEqual({ delivered: 1, held: -1 });
    expect(delivered.next.held).toBeUndefined();
    expect(dropped.counts).toEqual({ sent: -1, failed: 1, held: -1 });
    expect(readAfter.counts).toEqual({ read: 1 });
  });
});
