import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoCostLedger } from '#lib/adapters/dynamo/money/ledger-store.ts';
import { DynamoReconciliationStore } from '#lib/adapters/dynamo/money/reconciliation-store.ts';
import { queryAll } from '#lib/adapters/dynamo/queries.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { EMULATOR_TOKEN } from '../../local/standins/graph/emulator.ts';
import { call, emulator, expectErrorShape, graphUrl, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { reconcileAt } from '../support/scheduled-workers.ts';
import { useStackTable } from '../support/seed.ts';

/** The daily reconciliation reads every WABA of the shared stack, each test's: its time grows with the suite. */
const RECONCILING = { timeout: 180_000 };

/**
 * The reconciliation per client on the running local stack (decisions §26): Meta's pricing_analytics read by
 * sending number, so a client's `meta_amount` and gaps cover only its own numbers; a day whose read failed is read
 * on the next run; a missing COST stays absent; `GET /v1/usage/gaps` lists the gaps (BSP_CN).
 */
const today = () => new Date().toISOString().slice(0, 10);
const dayAfter = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const unixOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
const cents = (usd: number) => Math.round(usd * 100);

/** A message Meta accepted from a sending number and reported delivered: in Meta's books, not sent by the service. */
async function deliveredByMeta(phoneNumberId: string, to: string) {
  const answer = await fetch(`${graphUrl()}/v21.0/${phoneNumberId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${EMULATOR_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      messaging_product: 'whatsapp',
      to,
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-1' }] }],
      },
    }),
  });
  const { messages } = (await answer.json()) as { messages: { id: string }[] };
  await emulator('POST', `messages/${messages[0].id}/status`, { status: 'delivered' });
}

describe('a WABA shared by clients 7 and 8 (fixtures/demo.json: 100200300)', RECONCILING, () => {
  it('client 7’s meta_amount covers only its own numbers, never client 8’s spend', async () => {
    // Prepare: in a market no other file sends to (Rest of Africa: Algeria, +213), Meta delivered one message
    // from client 7's number 5215550001 and three from client 8's 5215550011, on the WABA they share
    const market = rateCards.placeOf('2135550000', today()).market;
    const run = String(Math.floor(Math.random() * 1e5)).padStart(5, '0');
    await deliveredByMeta('110001', `2135${run}01`);
    for (let i = 0; i < 3; i++) await deliveredByMeta('110011', `2135${run}1${i}`);
    await reconcileAt(dayAfter(today(), 1));
    // Act: as BSP_CN, who sees Meta's figures of any client (an agent does not once its client has a price list,
    // and the hostile-input file's generated requests may add one to client 7, in force from 2099)
    const usageOf = async (clientId: number) =>
      (
        await call('GET', `/v1/usage?client_id=${clientId}&from=${today()}&to=${today()}&group_by=market`, { token: await tokens.bsp() })
      ).body.data.find((r: { market: string }) => r.market === market) as { meta_amount?: number };
    const acme = await usageOf(7);
    const beta = await usageOf(8);
    // Assess: Meta's books of that market, number by number, are what each client sees
    const { delivered } = await emulator('GET', 'pricing?waba_id=100200300');
    const booked = (phone: string) =>
      (delivered as { phone_number: string; country: string; micros: number }[])
        .filter((d) => d.phone_number === phone && rateCards.marketOfRegion(d.country, today()) === market)
        .reduce((sum, d) => sum + d.micros, 0) / 1e6;
    expect(booked('5215550011')).toBeGreaterThan(0);
    // to the micro-dollar: a message to that market costs under a cent
    expect(acme.meta_amount).toBeCloseTo(booked('5215550001'), 6);
    expect(beta.meta_amount).toBeCloseTo(booked('5215550011'), 6);
  });
});

describe('pricing_analytics in pages (issue 51)', RECONCILING, () => {
  it('reads every page of the shared WABA’s day: client 7’s meta_amount is all of its own points', async () => {
    // Prepare: client 7's number delivers to three more countries of Rest of Africa, each its own data point,
    // and Meta answers two points a page: the third of them is on a page after the first, whatever came before
    const market = rateCards.placeOf('2135550000', today()).market;
    const run = String(Math.floor(Math.random() * 1e5)).padStart(5, '0');
    for (const code of ['244', '229', '267']) {
      expect(rateCards.placeOf(`${code}5550000`, today()).market).toBe(market);
      await deliveredByMeta('110001', `${code}5${run}`);
    }
    await emulator('POST', 'wabas/100200300/pricing-page-size', { size: 2 });
    try {
      await reconcileAt(dayAfter(today(), 1));
    } finally {
      await emulator('POST', 'wabas/100200300/pricing-page-size', { size: null });
    }
    // Act
    const usage = await call('GET', `/v1/usage?client_id=7&from=${today()}&to=${today()}&group_by=market`, { token: await tokens.bsp() });
    // Assess: Meta's books of that market for client 7's number, to the micro-dollar
    const row = (usage.body.data as { market: string; meta_amount?: number }[]).find((r) => r.market === market);
    const { delivered } = await emulator('GET', 'pricing?waba_id=100200300');
    const booked =
      (delivered as { phone_number: string; country: string; micros: number }[])
        .filter((d) => d.phone_number === '5215550001' && rateCards.marketOfRegion(d.country, today()) === market)
        .reduce((sum, d) => sum + d.micros, 0) / 1e6;
    expect(row?.meta_amount).toBeCloseTo(booked, 6);
  });
});

describe('Meta’s figures of a large day on DynamoDB (issue 51)', () => {
  /** A WABA of no client: its figures are this test's alone. */
  const waba = `split-${Math.floor(Math.random() * 1e9)}`;
  const day = '2026-11-19';
  const points = (n: number, micros: number) =>
    Array.from({ length: n }, (_, i) => ({
      day,
      phone_number: String(5215550000 + i),
      country: 'MX',
      category: 'marketing',
      volume: 1,
      micros,
    }));

  it('keeps a day of 8,000 points (over 400 KB as one item) in parts, reads it back whole, and a later read replaces it', async () => {
    // Prepare
    useStackTable();
    const ledger = new DynamoCostLedger(serviceTable());
    const large = points(8_000, 1_000);
    // Act
    await ledger.putMetaCosts(waba, day, large, '2026-11-20T06:00:00.000Z');
    const readLarge = await ledger.metaCosts([waba], day, day);
    await ledger.putMetaCosts(waba, day, points(2, 5_000), '2026-11-21T06:00:00.000Z');
    await ledger.putMetaCosts(waba, day, large, '2026-11-20T12:00:00.000Z');
    const readLater = await ledger.metaCosts([waba], day, day);
    const items = await queryAll(serviceTable(), {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `META_COST#${waba}` },
    });
    // Assess: whole, then the later read's two points only (an earlier read written after it changes nothing)
    expect(JSON.stringify(large).length).toBeGreaterThan(400 * 1024);
    expect(readLarge).toEqual(large);
    expect(readLater).toEqual(points(2, 5_000));
    expect(items.map((i) => i.sk)).toEqual([`DAY#${day}`]);
  });
});

describe('the reconciliation of a client’s own WABA (decisions §26)', RECONCILING, () => {
  const client = new OwnClient(548);
  const owner = client.token;
  const usageOfToday = async () =>
    (await call('GET', `/v1/usage?from=${today()}&to=${today()}&group_by=day`, { token: await owner() })).body.data[0] as {
      amount: number;
      meta_amount?: number;
    };

  beforeAll(async () => {
    // Ten messages to Argentina, sent, delivered and read, so the ledger has today's charges
    await client.seed('Reconciled', [demoTemplateAs('order_update', { id: 't548' })]);
    await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered', 'read'] });
    const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
    const accepted = await client.send(
      'order_update',
      Array.from({ length: 10 }, (_, i) => `549${run}${String(i).padStart(5, '0')}`),
    );
    expect(accepted.status).toBe(200);
    await client.settled(accepted.body.send_id, (s) => s.read === 10);
  }, 60_000);

  it('reads a day whose read failed on the next run, and fills it in', async () => {
    // Prepare: Meta does not answer for this WABA's today on a first run
    useStackTable();
    const unread = () => new DynamoReconciliationStore(serviceTable()).failedDays(client.waba);
    const fault = { path: `/${client.waba}`, method: 'GET', query: `start%28${unixOf(today())}%29`, status: 503 };
    await emulator('POST', 'faults', fault);
    let failedRun: Awaited<ReturnType<typeof reconcileAt>>;
    try {
      failedRun = await reconcileAt(dayAfter(today(), 1));
    } finally {
      await emulator('DELETE', `faults?path=/${client.waba}&method=GET`);
    }
    const unreadAfterFailure = await unread();
    // Act: a run five days on, when today is no longer among the three days each run reads
    await reconcileAt(dayAfter(today(), 5));
    // Assess: the day was kept as unread, then read: Meta's figure is beside the ledger's
    // (another file's run may read it in between: that fills it in as well)
    expect(failedRun.failed).toBeGreaterThanOrEqual(1);
    expect(unreadAfterFailure).toContain(today());
    expect(await unread()).toEqual([]);
    const row = await usageOfToday();
    expect(row.amount).toBeGreaterThan(0);
    expect(row.meta_amount).toBe(row.amount);
  });

  it('lists a client’s day above 1 % in GET /v1/usage/gaps, with both figures, to BSP_CN', async () => {
    // Prepare: Meta's COST of today 5 % above what was delivered
    await emulator('POST', `wabas/${client.waba}/pricing-skew`, { day: today(), factor: 1.05 });
    const run = await reconcileAt(dayAfter(today(), 1));
    const { amount } = await usageOfToday();
    // Act
    const gaps = await call('GET', `/v1/usage/gaps?from=${today()}&to=${today()}`, { token: await tokens.bsp() });
    // Assess
    expect(gaps.status).toBe(200);
    expect(gaps.body).toMatchObject({ from: today(), to: today() });
    const own = (gaps.body.data as { client_id: number; meta: number; share: number }[]).filter((g) => g.client_id === client.clientId);
    expect(own).toEqual([
      {
        client_id: client.clientId,
        day: today(),
        market: 'Argentina',
        currency: 'USD',
        ledger: amount,
        meta: expect.any(Number),
        share: expect.any(Number),
      },
    ]);
    const [gap] = own;
    expect(cents(gap.meta)).toBe(cents(amount * 1.05));
    expect(gap.share).toBeCloseTo(0.05 / 1.05, 3);
    expect(run.gaps.filter((g) => g.client_id === client.clientId)).toEqual(own);
  });

  it('keeps a missing COST absent: no meta_amount, no gap', async () => {
    // Prepare: the WABA is billed on a partner's credit line from now on
    await emulator('POST', `wabas/${client.waba}/credit-line`, { on: true });
    // Act
    const run = await reconcileAt(dayAfter(today(), 1));
    const row = await usageOfToday();
    const gaps = await call('GET', `/v1/usage/gaps?from=${today()}&to=${today()}`, { token: await tokens.bsp() });
    // Assess: the re-read day replaced its gap, and Meta's figure is unknown, not 0
    expect(row.amount).toBeGreaterThan(0);
    expect(row).not.toHaveProperty('meta_amount');
    expect(run.gaps.filter((g) => g.client_id === client.clientId)).toEqual([]);
    expect((gaps.body.data as { client_id: number }[]).filter((g) => g.client_id === client.clientId)).toEqual([]);
  });
});

describe('GET /v1/usage/gaps refusals', () => {
  it('is BSP_CN only: an agent gets 403', async () => {
    // Act
    const response = await call('GET', `/v1/usage/gaps?from=${today()}&to=${today()}`, { token: await tokens.acme() });
    // Assess
    expectErrorShape(response, 403);
  });

  it.each([
    ['a date that is not one', 'from=2026-02-30&to=2026-03-01'],
    ['no date', 'to=2026-03-01'],
    ['a malformed date', 'from=2026-3-1&to=2026-03-01'],
    ['to before from', 'from=2026-03-02&to=2026-03-01'],
    ['more than 366 days', 'from=2025-01-01&to=2026-01-02'],
  ])('answers 400 for %s', async (_, query) => {
    // Act
    const response = await call('GET', `/v1/usage/gaps?${query}`, { token: await tokens.bsp() });
    // Assess
    expectErrorShape(response, 400);
  });
});
