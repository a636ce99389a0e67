import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * Cards in the currencies Meta bills (decisions §31, issue 53 items 1–2), on the running local stack: client 674's
 * WABA is billed in INR, client 675's in BRL. The cards in force (2026-10-01) are partial: INR gives India, BRL gives
 * Brazil. A MARKETING message to those markets is estimated, charged and used in the WABA's currency at Meta's row
 * (India ₹0.8631, Brazil R$0.3217); one to a market the card lacks is priced as before, in USD, said so.
 */
const inr = new OwnClient(674);
const brl = new OwnClient(675);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const INDIA = `9198${run}4321`;
const BRAZIL = `55119${run}4321`;
const GERMANY = '4915112345678';
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  await inr.seed('Billed in INR', [demoTemplateAs('order_update', { id: 't674', category: 'MARKETING' })]);
  await brl.seed('Billed in BRL', [demoTemplateAs('order_update', { id: 't675', category: 'MARKETING' })]);
  for (const [client, currency] of [
    [inr, 'INR'],
    [brl, 'BRL'],
  ] as const) {
    await emulator('POST', `wabas/${client.waba}/currency`, { currency });
    await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
  }
}, 60_000);

describe('a dry run of a WABA billed in INR or BRL (decisions §31)', () => {
  it('estimates a MARKETING message to India from the INR WABA at the INR card’s India row', async () => {
    // Act
    const dry = await inr.send('order_update', [INDIA], { query: '?dry_run=true' });
    // Assess
    expect(dry.status).toBe(200);
    expect(dry.body.estimate).toMatchObject({
      currency: 'INR',
      amount: 0.8631,
      rate_card: 'meta-2026-10-01-INR',
      by_market: { India: { messages: 1, amount: 0.8631 } },
    });
    expect(dry.body.estimate).not.toHaveProperty('currency_mismatch');
  });

  it('estimates a MARKETING message to Brazil from the BRL WABA at R$0.3217', async () => {
    // Act
    const dry = await brl.send('order_update', [BRAZIL], { query: '?dry_run=true' });
    // Assess
    expect(dry.status).toBe(200);
    expect(dry.body.estimate).toMatchObject({ currency: 'BRL', amount: 0.3217, rate_card: 'meta-2026-10-01-BRL' });
    expect(dry.body.estimate).not.toHaveProperty('currency_mismatch');
  });

  it('estimates a number of a market the partial card lacks in USD, with currency_mismatch', async () => {
    // Act
    const fromInr = await inr.send('order_update', [GERMANY], { query: '?dry_run=true' });
    const fromBrl = await brl.send('order_update', [GERMANY], { query: '?dry_run=true' });
    // Assess
    for (const dry of [fromInr, fromBrl]) {
      expect(dry.status).toBe(200);
      expect(dry.body.estimate).toMatchObject({ currency: 'USD', currency_mismatch: true, rate_card: 'meta-2026-10-01-USD' });
    }
  });
});

describe('a send and its delivery from a WABA billed in INR or BRL (decisions §31)', () => {
  /** The client's usage of today by market and category. */
  const usageOf = async (client: OwnClient) => {
    const path = `/v1/usage?from=${today()}&to=${today()}&group_by=market,category`;
    const usage = await call('GET', path, { token: await client.token() });
    expect(usage.status).toBe(200);
    return usage.body.data as Record<string, unknown>[];
  };

  it.each([
    ['INR', inr, INDIA, 'India', 0.8631],
    ['BRL', brl, BRAZIL, 'Brazil', 0.3217],
  ] as const)('charges a delivered message in %s, and the usage row says so', async (currency, client, number, market, amount) => {
    // Prepare
    const accepted = await client.send('order_update', [number]);
    expect(accepted.status).toBe(200);
    expect(accepted.body.estimate).toMatchObject({ currency, amount });
    // Act
    const settled = await client.settled(accepted.body.send_id, (s) => s.delivered === 1);
    const rows = await until(
      () => usageOf(client),
      (found) => found.some((row) => row.market === market),
      60_000,
      500,
    );
    // Assess
    expect(settled.delivered).toBe(1);
    expect(rows).toEqual([expect.objectContaining({ market, category: 'marketing', currency, messages: 1, amount })]);
    expect(rows[0]).not.toHaveProperty('currency_mismatch');
  });
});
