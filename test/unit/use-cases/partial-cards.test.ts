import { describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { chargeOf } from '#lib/domain/money/pricing/charge.ts';
import { dryRunSend } from '#lib/domain/sends/accept/dry-run.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/**
 * Cards in the currencies Meta bills (decisions §31, issue 53 items 1–2): a WABA billed in INR is priced on the INR
 * card where it prices the message's market, and as before (the USD card, `currency_mismatch`) where it does not.
 * On 2026-11-25 the INR card in force (2026-10-01) gives India alone.
 */
const acme = callerOf(7);
const NOW = '2026-11-25T10:00:00.000Z';
const DID = '5215550001';
const WABA = '100200300';
const INDIA = ['919876543210', '919812345678'];
const BRAZIL = '5511987654321';
const utility = { category: 'utility', type: 'regular', billable: true };

/** A dry run of the demo's UTILITY template for client 7 from its WABA billed in `currency`, to `numbers`. */
async function dryRunIn(currency: string, numbers: string[]) {
  const world = memoryWorld();
  world.emulator.model.wabas.get(WABA)!.currency = currency;
  const template = world.emulator.model.findTemplate('9002')!.template;
  const variables = new Set(JSON.stringify(template.components).match(/\{\{\d+\}\}/g)).size;
  const recipients = numbers.map((to) => ({ to, params: { body: Array.from({ length: variables }, () => 'v') } }));
  return dryRunSend({ ...world, now: () => NOW }, acme, {
    pathDid: DID,
    body: { did: DID, type: 'template', channel: 'MSGCHAN', template: { name: 'order_update', language: 'es' } },
    recipients: recipients.map((recipient, index) => ({ index, recipient })),
    refused: [],
    total: recipients.length,
  });
}

describe('a dry run of a WABA billed in INR (in memory)', () => {
  it('estimates Indian numbers on the INR card, at its India row', async () => {
    // Act
    const dry = await dryRunIn('INR', INDIA);
    // Assess
    expect(dry.estimate).toMatchObject({ currency: 'INR', amount: 0.23, rate_card: 'meta-2026-10-01-INR' });
    expect(dry.estimate).toMatchObject({ by_market: { India: { messages: 2, amount: 0.23 } } });
    expect(dry.estimate).not.toHaveProperty('currency_mismatch');
  });

  it('estimates a send with a number of a market the INR card lacks wholly in USD, said so: never two currencies in one sum', async () => {
    // Prepare
    const usd = (market: string) => rateCards.priceMicros(market, 'utility', '2026-11-25') / 1e6;
    // Act
    const dry = await dryRunIn('INR', [...INDIA, BRAZIL]);
    // Assess
    expect(dry.estimate).toMatchObject({ currency: 'USD', currency_mismatch: true, rate_card: 'meta-2026-10-01-USD' });
    expect(dry.estimate).toMatchObject({ by_market: { India: { amount: 2 * usd('India') }, Brazil: { amount: usd('Brazil') } } });
  });
});

describe('a delivered message of a WABA billed in INR is charged', () => {
  it('in INR to an Indian number, and in USD with currency_mismatch to a number of a market the INR card lacks', () => {
    // Prepare
    const at = Date.parse(NOW);
    // Act
    const india = chargeOf(rateCards, utility, INDIA[0], at, { currency: 'INR' });
    const brazil = chargeOf(rateCards, utility, BRAZIL, at, { currency: 'INR' });
    // Assess
    expect(india).toMatchObject({ market: 'India', micros: 115_000, currency: 'INR' });
    expect(india).not.toHaveProperty('currency_mismatch');
    expect(brazil).toMatchObject({ market: 'Brazil', micros: 6_800, currency: 'USD', currency_mismatch: true });
  });

  it('in BRL to a Brazilian number from a WABA billed in BRL, on the card of the day', () => {
    // Act
    const july = chargeOf(rateCards, utility, BRAZIL, Date.parse('2026-07-01T12:00:00Z'), { currency: 'BRL' });
    const june = chargeOf(rateCards, utility, BRAZIL, Date.parse('2026-06-30T12:00:00Z'), { currency: 'BRL' });
    // Assess
    expect(july).toMatchObject({ micros: 35_000, currency: 'BRL' });
    expect(june).toMatchObject({ micros: 6_800, currency: 'USD', currency_mismatch: true });
  });
});
