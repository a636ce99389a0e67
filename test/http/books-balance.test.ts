import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoBudgetStore } from '#lib/adapters/dynamo/money/budget-store.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { call, emulator, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { postMessagesChange } from '../support/meta-change.ts';
import { until } from '../support/until.ts';

/**
 * The books balance (issue 51, "done when", the stack half; decisions §27, §30), on the running local stack.
 * Client 651 has a price list (Meta's cost + 20 %) and a budget. It sends a MARKETING template to three markets,
 * paused by Meta mid-send and resumed, and a UTILITY one to three markets. Meta reports only `sent` by itself:
 * the test reports each delivery late, some while the send is paused, every one twice, with the WABA's currency
 * read failing at Graph for the first part; then Meta prices a reply the service never sent on the client's
 * number. Once every status is applied, to the micro-unit: the sends' charges, the usage, the open month's
 * statement and Meta's books agree; the budget spent the sends' prices and holds nothing reserved.
 */
const client = new OwnClient(651);
const offer = demoTemplateAs('order_update', { id: '651001', name: 'books_offer', category: 'MARKETING' });
const update = demoTemplateAs('order_update', { id: '651002', name: 'books_update' });
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const numbersOf = (batch: number, markets: string[], count: number) =>
  Array.from({ length: count }, (_, i) => `${markets[i % markets.length]}${batch}${run}${String(i).padStart(5, '0')}`);
const OUTSIDE_TO = `52155${run}77`;
const OUTSIDE_ID = `wamid.books-outside.${run}`;
const today = () => new Date().toISOString().slice(0, 10);
const micros = (amount: number) => Math.round(amount * 1e6);
const sumOf = (values: number[]) => values.reduce((sum, n) => sum + n, 0);
/** Graph's read of the WABA's billing currency (`GET /{waba}?fields=currency`), failing while the fault stands. */
const CURRENCY_FAULT = { path: `/${client.waba}`, query: 'fields=currency', status: 500, code: 2 };

type Sent = { id: string };
const sentOf = async (template?: string) =>
  (await emulator('GET', `sent?phone_number_id=${client.numberId}${template ? `&template=${template}` : ''}`)).sent as Sent[];
const sendAsBsp = async (sendId: string) => (await call('GET', `/v1/sends/${sendId}`, { token: await tokens.bsp() })).body;

/** Meta reports these messages' statuses, each `times` times, a few at once. */
async function report(messages: Sent[], status: 'delivered' | 'read', times = 1) {
  for (let round = 0; round < times; round++)
    for (let i = 0; i < messages.length; i += 25)
      await Promise.all(messages.slice(i, i + 25).map((m) => emulator('POST', `messages/${encodeURIComponent(m.id)}/status`, { status })));
}

/** Meta's `messages` change with a priced status of a reply sent from another tool on the client's number. */
function outsideStatus() {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: client.did, phone_number_id: client.numberId },
    statuses: [
      {
        id: OUTSIDE_ID,
        status: 'delivered',
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: OUTSIDE_TO,
        pricing: { billable: true, category: 'service', type: 'regular', pricing_model: 'PMP' },
      },
    ],
  };
  return postMessagesChange(client.waba, value);
}

/** Both sends out; the MARKETING one paused by Meta after its first 100 accepted messages. */
async function sendAndPause() {
  const marketing = await client.send('books_offer', numbersOf(1, ['52', '55', '91'], 600));
  const utility = await client.send('books_update', numbersOf(2, ['57', '52', '91'], 60));
  expect([marketing.status, utility.status]).toEqual([200, 200]);
  await until(
    () => sentOf('books_offer'),
    (sent) => sent.length >= 100,
    60_000,
  );
  await emulator('POST', `templates/${offer.id}/pause`, { seconds: 3_600 });
  const paused = await until(
    () => client.status(marketing.body.send_id),
    (s) => s.status === 'paused',
    60_000,
  );
  expect(paused.status).toBe('paused');
  return { marketingId: marketing.body.send_id as string, utilityId: utility.body.send_id as string };
}

type UsageRow = { category: string; messages: number; amount: number; price: number };
/** The client's usage of today by market and category, as BSP_CN reads it (cost and price). */
const usageRows = async () => {
  const path = `/v1/usage?client_id=${client.clientId}&from=${today()}&to=${today()}&group_by=market,category`;
  return ((await call('GET', path, { token: await tokens.bsp() })).body.data ?? []) as UsageRow[];
};

/** Every message reported delivered and every status applied: each send's delivered count is its sent count. */
const allApplied = (sendId: string) =>
  until(
    () => client.status(sendId),
    (s) => s.pending === 0 && s.delivered === s.sent && s.sent > 0,
    420_000,
    1_000,
  );

/**
 * The scenario: deliveries of the paused block reported (twice) while the currency read fails; the fault ends and
 * Meta lets the template go; the rest delivered late, everything delivered again, some read; the outside reply.
 */
async function runScenario() {
  const ids = await sendAndPause();
  await emulator('POST', 'faults', CURRENCY_FAULT);
  const beforeResume = await sentOf();
  await report(beforeResume, 'delivered', 2);
  await until(
    () => client.status(ids.marketingId),
    (s) => s.delivered > 0,
    60_000,
    500,
  );
  await emulator('DELETE', `faults?path=${encodeURIComponent(CURRENCY_FAULT.path)}`);
  await emulator('POST', `templates/${offer.id}/status`, { status: 'APPROVED' });
  for (const sendId of [ids.marketingId, ids.utilityId])
    await until(
      () => client.status(sendId),
      (s) => s.status === 'completed',
      180_000,
      500,
    );
  const all = await sentOf();
  await report(all, 'delivered', 2);
  await report(all.slice(0, 50), 'read');
  const outside = [await outsideStatus(), await outsideStatus()];
  expect(outside.map((o) => o.status)).toEqual([200, 200]);
  await until(usageRows, (rows) => rows.some((r) => r.category === 'service'), 60_000, 500);
  return { ...ids, sent: all.length, marketing: await allApplied(ids.marketingId), utility: await allApplied(ids.utilityId) };
}

let scenario: Awaited<ReturnType<typeof runScenario>>;

beforeAll(async () => {
  await client.seed('Books', [offer, update]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent'] });
  const bsp = await tokens.bsp();
  const list = await call('PUT', `/v1/clients/${client.clientId}/price-list`, {
    token: bsp,
    body: { effective_from: today(), currency: 'USD', markup_percent: 20 },
  });
  const budget = await call('PUT', `/v1/clients/${client.clientId}/budget`, { token: bsp, body: { monthly_amount: 1_000 } });
  expect([list.status, budget.status]).toEqual([200, 200]);
  scenario = await runScenario();
}, 900_000);

/** What the service's API and Meta's books say once every status is applied, in micro-units (BSP_CN sees both). */
async function books() {
  const bsp = await tokens.bsp();
  const sends = await Promise.all([scenario.marketingId, scenario.utilityId].map(sendAsBsp));
  const statement = await call('GET', `/v1/clients/${client.clientId}/statements/${today().slice(0, 7)}`, { token: bsp });
  const budget = await call('GET', `/v1/clients/${client.clientId}/budget`, { token: bsp });
  const { delivered } = await emulator('GET', `pricing?waba_id=${client.waba}`);
  const lines = statement.body.statements[0].lines as { amount: number; cost: number; messages: number }[];
  return {
    answers: [statement.status, budget.status],
    sends,
    usage: await usageRows(),
    lines,
    budget: budget.body as { spent: number; reserved: number },
    month: await new DynamoBudgetStore(serviceTable()).month(client.clientId, today().slice(0, 7)),
    metaBooked: delivered as { micros: number }[],
  };
}

describe('the books balance (issue 51, decisions §30)', () => {
  let seen: Awaited<ReturnType<typeof books>>;
  /** The outside reply: a service message, billed at Mexico's utility rate (upstream-facts §9.D). */
  const outsideCost = () => rateCards.priceMicros(rateCards.placeOf(OUTSIDE_TO, today()).market, 'utility', today());

  beforeAll(async () => {
    seen = await books();
  }, 60_000);

  it('counts every message Meta accepted once, paused or not, however often and late its status came', () => {
    // Assess
    expect(seen.answers).toEqual([200, 200]);
    expect(scenario.marketing).toMatchObject({ status: 'completed', total: 600, failed: 0, pending: 0 });
    expect(scenario.utility).toMatchObject({ status: 'completed', total: 60, sent: 60, delivered: 60, pending: 0 });
    expect(scenario.marketing.sent + scenario.utility.sent).toBe(scenario.sent);
    expect(scenario.marketing.delivered).toBe(scenario.marketing.sent);
    expect(seen.metaBooked).toHaveLength(scenario.sent);
  });

  it('charges the sends what Meta’s books say, and the usage and statement that plus the outside reply', () => {
    // Prepare
    const sendsCost = sumOf(seen.sends.map((s) => micros(s.cost.amount)));
    const metaCost = sumOf(seen.metaBooked.map((d) => d.micros));
    // Assess: Σ sends' charges = Meta's books; Σ usage = Σ statement lines = both + the reply sent elsewhere
    expect(sendsCost).toBe(metaCost);
    expect(sumOf(seen.usage.map((r) => micros(r.amount)))).toBe(metaCost + outsideCost());
    expect(sumOf(seen.lines.map((l) => micros(l.cost)))).toBe(metaCost + outsideCost());
    expect(sumOf(seen.usage.map((r) => r.messages))).toBe(scenario.sent + 1);
    expect(sumOf(seen.lines.map((l) => l.messages))).toBe(scenario.sent + 1);
    expect(seen.usage.find((r) => r.category === 'service')).toMatchObject({ messages: 1 });
  });

  it('bills the client its price: the statement’s lines are the usage’s prices, the budget spent the sends’', () => {
    // Prepare
    const sendsPrice = sumOf(seen.sends.map((s) => micros(s.price.amount)));
    const usagePrice = sumOf(seen.usage.map((r) => micros(r.price)));
    // Assess
    expect(sumOf(seen.lines.map((l) => micros(l.amount)))).toBe(usagePrice);
    expect(usagePrice).toBeGreaterThan(sendsPrice);
    expect(micros(seen.budget.spent)).toBe(sendsPrice);
    expect(seen.month.spent).toBe(sendsPrice);
  });

  it('ends every reservation: what was reserved was all released, and nothing stays reserved', () => {
    // Assess
    expect(seen.month.reserved).toBeGreaterThan(0);
    expect(seen.month.released).toBe(seen.month.reserved);
    expect(seen.budget.reserved).toBe(0);
  });
});
