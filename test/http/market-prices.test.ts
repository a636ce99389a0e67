import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { emulator } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * A send's markets and prices on the running local stack (decisions §26, issue 41): each recipient's region from
 * libphonenumber-js, its market from the card in force today, the price in the WABA's currency. Client 546 has
 * a WABA of its own, billed in USD; client 547's is billed in a currency with no card in force.
 */
const usd = new OwnClient(546);
const unpriced = new OwnClient(547);
const today = () => new Date().toISOString().slice(0, 10);

/** One recipient of each of eight markets, and the market the card names for it. */
const EIGHT = {
  '12025550123': 'North America',
  '17875550123': 'Rest of Latin America',
  '525555550100': 'Mexico',
  '5511987654321': 'Brazil',
  '919876543210': 'India',
  '442079460958': 'United Kingdom',
  '4915112345678': 'Germany',
  '74951234567': 'Russia',
};

beforeAll(async () => {
  await usd.seed('Prices in USD', [demoTemplateAs('order_update', { id: 't546' })]);
  await unpriced.seed('Prices in MXN', [demoTemplateAs('order_update', { id: 't547' })]);
  await emulator('POST', `wabas/${unpriced.waba}/currency`, { currency: 'MXN' });
}, 60_000);

describe('a dry run’s estimate by market (decisions §26)', () => {
  it('shows eight markets at the card’s prices for eight recipients of eight markets', async () => {
    // Prepare
    const numbers = Object.keys(EIGHT);
    // Act
    const dry = await usd.send('order_update', numbers, { query: '?dry_run=true' });
    // Assess
    expect(dry.status).toBe(200);
    const card = rateCards.on(today());
    expect(dry.body.estimate).toMatchObject({ currency: 'USD', rate_card: `meta-${card.effective_from}-USD` });
    expect(Object.keys(dry.body.estimate.by_market).sort()).toEqual([...new Set(Object.values(EIGHT))].sort());
    for (const market of Object.values(EIGHT))
      expect(dry.body.estimate.by_market[market]).toEqual({ messages: 1, amount: card.markets[market].utility });
    expect(dry.body.warnings).toBeUndefined();
  });

  it('warns of a recipient libphonenumber-js says cannot be a number of its region, and still counts it valid', async () => {
    // Prepare: a US number one digit short, beside a good one
    const numbers = ['1202555012', '12025550123'];
    // Act
    const dry = await usd.send('order_update', numbers, { query: '?dry_run=true' });
    // Assess
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ success: true, valid: 2 });
    expect(dry.body.warnings).toEqual([{ code: 'numbers_not_valid_for_region', message: expect.stringContaining('positions 0)') }]);
  });

  it('prices a WABA billed in a currency without a card in force in USD, and says so', async () => {
    // Act
    const dry = await unpriced.send('order_update', ['5511987654321'], { query: '?dry_run=true' });
    // Assess
    expect(dry.status).toBe(200);
    expect(dry.body.estimate).toMatchObject({ currency: 'USD', currency_mismatch: true, by_market: { Brazil: { messages: 1 } } });
  });
});
