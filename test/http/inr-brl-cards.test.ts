import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { lateFiledUnder } from '#lib/domain/money/statements/months.ts';
import { apiUrl, call, emulator, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { pdfText } from '../support/pdf-text.ts';
import { until } from '../support/until.ts';

/**
 * Cards in the currencies Meta bills (decisions §31, issue 53 items 1–2), on the running local stack: client 674's
 * WABA is billed in INR, client 675's in BRL. The cards in force (2026-10-01) are partial: INR gives India, BRL gives
 * Brazil. A MARKETING message to those markets is estimated, charged and used in the WABA's currency at Meta's row
 * (India ₹0.8631, Brazil R$0.3217); one to a market the card lacks is priced as before, in USD, said so. This month's
 * statement of each bills it in the WABA's currency at Meta's row. Client 677's WABA is billed in EUR, whose only card
 * is 2026-07-01's: a message Meta delivered in July 2026 is billed at that card's EUR row (an adjustment of July, now
 * closed); its price list in EUR converts today's USD cost at the rate the statement prints (decisions §31).
 */
const inr = new OwnClient(674);
const brl = new OwnClient(675);
const eur = new OwnClient(677);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const INDIA = `9198${run}4321`;
const BRAZIL = `55119${run}4321`;
const GERMANY = '4915112345678';
const today = () => new Date().toISOString().slice(0, 10);
const thisMonth = () => today().slice(0, 7);

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

type Line = Record<string, unknown> & { unit_price: number; billable: number; amount: number };
type Statement = { statements: { currency: string; lines: Line[] }[] } & Record<string, unknown>;

/** A client's statement of a month, as JSON (with its agent's token unless given) or as the PDF's text. */
async function statementOf(client: OwnClient, month: string, options: { accept?: 'application/pdf'; token?: string } = {}) {
  const response = await fetch(`${apiUrl()}/v1/clients/${client.clientId}/statements/${month}`, {
    headers: { accept: options.accept ?? 'application/json', authorization: `Bearer ${options.token ?? (await client.token())}` },
  });
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (options.accept) return { pdf: (await pdfText(bytes)).text };
  return { json: JSON.parse(new TextDecoder().decode(bytes)) as Statement };
}

describe('this month’s statement of a WABA billed in INR or BRL (decisions §31)', () => {
  it.each([
    ['INR', inr, 'India', 863_100],
    ['BRL', brl, 'Brazil', 321_700],
  ] as const)(
    'bills the delivered message in %s at the card’s row, and its PDF names the currency',
    async (currency, client, market, unit) => {
      // Act: after the send above was delivered and charged
      const { json } = await statementOf(client, thisMonth());
      const { pdf } = await statementOf(client, thisMonth(), { accept: 'application/pdf' });
      // Assess: amount = unit price × billable, to the micro-unit
      const billed = json?.statements.find((s) => s.currency === currency);
      const line = billed?.lines.find((l) => l.market === market && l.category === 'marketing' && l.kind === 'charge');
      expect(line).toMatchObject({ unit_price: unit });
      expect(line?.billable).toBeGreaterThanOrEqual(1);
      expect(line?.amount).toBe(((line?.billable ?? 0) * unit) / 1e6);
      expect(json?.card_versions).toContain(`meta-2026-10-01-${currency}`);
      expect(pdf).toContain(`Currency: ${currency}`);
      expect(pdf).toContain(`Amount due ${currency}:`);
    },
  );
});

describe('a WABA billed in EUR: July 2026 at the EUR card, today through its list’s rate (decisions §31)', () => {
  const MEXICO_JULY = `52155${run}6771`;
  const MEXICO_TODAY = `52155${run}6772`;
  const JULY = Date.parse('2026-07-15T12:00:00Z');
  /** Euros per dollar: the rate the list converts Meta's USD cost at (no EUR card is in force today). */
  const USD_RATE = 0.86;
  const MARKUP = 10;

  beforeAll(async () => {
    await eur.seed('Billed in EUR', [demoTemplateAs('order_update', { id: 't677', category: 'MARKETING' })]);
    await emulator('POST', `wabas/${eur.waba}/currency`, { currency: 'EUR' });
    // Meta reports only `sent` by itself: the test reports each delivery at the time it names.
    await emulator('POST', `numbers/${eur.numberId}/statuses`, { statuses: ['sent'] });
    // The list before any status: from today, so July is billed at Meta's cost and today at the list's price.
    const list = await call('PUT', `/v1/clients/${eur.clientId}/price-list`, {
      token: await tokens.bsp(),
      body: { effective_from: today(), currency: 'EUR', markup_percent: MARKUP, exchange_rates: { USD: USD_RATE } },
    });
    expect(list.status).toBe(200);
    const july = await eur.deliveredAt('order_update', MEXICO_JULY, JULY);
    const now = await eur.deliveredAt('order_update', MEXICO_TODAY, Date.now());
    expect([july.delivered, now.delivered]).toEqual([1, 1]);
  }, 120_000);

  /** The month the July charge is billed on (July closed: the open month's, as an adjustment of 2026-07). */
  const julyFiledUnder = () => lateFiledUnder('2026-07-15', Date.now()) ?? '2026-07';

  it('bills the message Meta delivered in July 2026 at the 2026-07-01 EUR card’s Mexico row', async () => {
    // Prepare: Mexico MARKETING on the EUR card, €0.0253
    expect(rateCards.inForce('2026-07-15', 'EUR', ['Mexico']).card.currency).toBe('EUR');
    // Act: as BSP_CN (the client's agent sees a line billed before its list as not priced, decisions §32)
    const read = await until(
      async () => (await statementOf(eur, julyFiledUnder(), { token: await tokens.bsp() })).json as Statement,
      (found) => found.statements.some((s) => s.lines.some((l) => l.of_month === '2026-07')),
      60_000,
      500,
    );
    // Assess
    const billed = read.statements.find((s) => s.currency === 'EUR');
    const july = billed?.lines.filter((l) => l.of_month === '2026-07');
    expect(july).toEqual([
      expect.objectContaining({
        kind: 'adjustment',
        market: 'Mexico',
        category: 'marketing',
        billable: 1,
        unit_price: 25_300,
        amount: 0.0253,
      }),
    ]);
  });

  it('prints the rate its list converted today’s USD cost at, to its agent, in JSON and PDF', async () => {
    // Prepare: today's cost on the USD card, then the list's rate and markup, rounded once
    const cost = rateCards.priceMicros('Mexico', 'marketing', today());
    const price = Math.round((cost * USD_RATE * (100 + MARKUP)) / 100);
    // Act
    const { json } = await statementOf(eur, thisMonth());
    const { pdf } = await statementOf(eur, thisMonth(), { accept: 'application/pdf' });
    // Assess
    const charge = json?.statements.find((s) => s.currency === 'EUR')?.lines.find((l) => l.kind === 'charge');
    expect(charge).toMatchObject({ market: 'Mexico', category: 'marketing', billable: 1, unit_price: price });
    expect(json?.exchange_rates).toEqual([{ price_list: today(), currency: 'EUR', per: 'USD', rate: USD_RATE }]);
    expect(JSON.stringify(json)).not.toMatch(/cost|margin|markup/);
    expect(pdf).toContain(`Price list ${today()}: ${USD_RATE} EUR per USD`);
  });
});
