import { beforeAll, describe, expect, it, vi } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { EMULATOR_TOKEN } from '../../local/standins/graph/emulator.ts';
import { apiUrl, call, emulator, expectErrorShape, graphUrl, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * What messages cost, on the running local stack (decisions §24, issue 34): the emulator prices every status as
 * Meta does and keeps Meta's books; the service keeps the ledger from the statuses. Client 540 has its own WABA
 * and number, whose messages the emulator reports sent, delivered and read.
 */
const client = new OwnClient(540);
const CLIENT = client.clientId;
const DID = client.did;
const WABA = client.waba;
/** Three of the card's markets, each a country of its own (issue 41: none of them priced as `Other`). */
const MARKETS = ['52', '55', '91'];
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const numberOf = (i: number) => `${MARKETS[i % 3]}9${run}${String(i).padStart(5, '0')}`;
const owner = client.token;
const today = () => new Date().toISOString().slice(0, 10);
const cents = (usd: number) => Math.round(usd * 100);

beforeAll(async () => {
  await client.seed('Costs', [demoTemplateAs('order_update', { id: 't540' })]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered', 'read'] });
}, 60_000);

describe('what a send costs (decisions §24)', () => {
  const numbers = Array.from({ length: 1_000 }, (_, i) => numberOf(i));
  let sendId: string;
  let estimate: { amount: number; by_market: Record<string, { messages: number; amount: number }> };
  let status: Record<string, any>;

  beforeAll(async () => {
    const accepted = await client.send('order_update', numbers);
    expect(accepted.status).toBe(200);
    sendId = accepted.body.send_id;
    estimate = accepted.body.estimate;
    status = await client.settled(sendId, (s) => s.read === 1_000, 300_000);
    expect(status.read).toBe(1_000);
  }, 330_000);

  it('a send of 1,000 over three markets costs what Meta’s books say, to the cent, and what its estimate said', async () => {
    // Prepare: Meta's books of the client's WABA (the emulator's billable messages at the card's prices)
    const { delivered } = await emulator('GET', `pricing?waba_id=${WABA}`);
    const booked = (delivered as { micros: number }[]).reduce((sum, d) => sum + d.micros, 0) / 1e6;
    // Act
    const usage = await call('GET', `/v1/usage?from=${today()}&to=${today()}&group_by=market`, { token: await owner() });
    // Assess: one charge a message, at the card's price, in the send, the client's usage and the estimate
    expect(delivered).toHaveLength(1_000);
    expect(status.cost).toMatchObject({ currency: 'USD', billable: 1_000, by_category: { utility: { messages: 1_000 } } });
    expect(cents(status.cost.amount)).toBe(cents(booked));
    expect(cents(estimate.amount)).toBe(cents(booked));
    expect(Object.keys(estimate.by_market).sort()).toEqual(['Brazil', 'India', 'Mexico']);
    expect(usage.status).toBe(200);
    const byMarket = Object.fromEntries(
      (usage.body.data as { market: string; amount: number; messages: number }[]).map((r) => [r.market, r]),
    );
    for (const [market, { messages, amount }] of Object.entries(estimate.by_market)) {
      expect(byMarket[market].messages).toBe(messages);
      expect(cents(byMarket[market].amount)).toBe(cents(amount));
    }
  });

  it('shows each recipient’s pricing and cost', async () => {
    // Prepare
    const day = today();
    // Act
    const page = await call('GET', `/v1/sends/${sendId}/recipients?size=100`, { token: await owner() });
    // Assess
    expect(page.status).toBe(200);
    for (const row of page.body.data as { to: string; pricing: unknown; cost: number }[]) {
      const { market } = rateCards.placeOf(row.to, day);
      expect(row.pricing).toEqual({ category: 'utility', type: 'regular', billable: true });
      expect(row.cost).toBe(rateCards.priceMicros(market, 'utility', day) / 1e6);
    }
  });

  it('answers the usage as a CSV an accountant opens: a header row, a row a group, amounts with 4 decimals', async () => {
    // Prepare / Act
    const csv = await fetch(`${apiUrl()}/v1/usage?from=${today()}&to=${today()}&group_by=category`, {
      headers: { authorization: `Bearer ${await owner()}`, accept: 'text/csv' },
    });
    const text = await csv.text();
    // Assess
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = text.trimEnd().split('\r\n');
    // decisions §27: every row names its client and period (from–to), then its groups and currency
    expect(lines[0]).toBe(
      'client_id,from,to,period,market,category,did,template,send,currency,messages,billable,amount,price,price_currency,margin,meta_amount,meta_currency',
    );
    expect(lines).toHaveLength(2);
    // meta_amount stays empty until a reconciliation reads the day (another file's run may have: decisions §26)
    const day = today();
    expect(lines[1]).toMatch(new RegExp(`^${CLIENT},${day},${day},,,utility,,,,USD,1000,1000,\\d+\\.\\d{4},,,,(\\d+\\.\\d{4})?,$`));
    expect(Number(lines[1].split(',')[12])).toBeCloseTo(status.cost.amount, 4);
  });
});

describe('the daily reconciliation with Meta’s pricing_analytics (decisions §24)', () => {
  /** The ReconcileCosts worker as its schedule runs it, for the three days before `time`, and the metrics it wrote. */
  async function reconcile(day: string) {
    Object.assign(process.env, { GRAPH_API_URL: graphUrl(), GRAPH_API_TOKEN: EMULATOR_TOKEN, POWERTOOLS_METRICS_DISABLED: 'false' });
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      // A fresh module graph: the files of this worker share their modules, and an earlier one's worker run may
      // have made the metrics' emitter with metrics off (it reads the setting once).
      vi.resetModules();
      const { handler } = await import('../../functions/workers/reconcile-costs.ts');
      const time = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString();
      const result = await handler({ time });
      const metrics = lines.flatMap((l) => (l.startsWith('{') ? [JSON.parse(l)] : [])).filter((l) => l._aws);
      return { result, metrics };
    } finally {
      write.mockRestore();
    }
  }
  const usageOfDay = async () =>
    (await call('GET', `/v1/usage?from=${today()}&to=${today()}&group_by=day`, { token: await owner() })).body.data[0] as {
      amount: number;
      meta_amount?: number;
    };

  it('finds no gap when Meta’s figures are the ledger’s, and shows them beside it', async () => {
    // Act
    const { result, metrics } = await reconcile(today());
    const row = await usageOfDay();
    // Assess
    // Other files' WABAs may have statuses still on their way: only this WABA must have no gap, and the
    // metric counts exactly the gaps found.
    expect(result.gaps.filter((g) => g.client_id === CLIENT)).toEqual([]);
    const counted = metrics.flatMap((m) => [m.CostGaps ?? []].flat() as number[]).reduce((sum, n) => sum + n, 0);
    expect(counted).toBe(result.gaps.length);
    expect(row.meta_amount).toBe(row.amount);
  });

  it('shows a skewed day’s gap in usage and counts it as the CostGaps metric', async () => {
    // Prepare: Meta's COST of today 5 % above what was delivered
    await emulator('POST', `wabas/${WABA}/pricing-skew`, { day: today(), factor: 1.05 });
    // Act
    const { result, metrics } = await reconcile(today());
    const row = await usageOfDay();
    // Assess: a gap in each market of the client's day (decisions §26), the ledger's figures summing to the day's
    const gaps = result.gaps.filter((g) => g.client_id === CLIENT);
    expect(gaps.map((g) => g.market).sort()).toEqual(['Brazil', 'India', 'Mexico']);
    expect(cents(gaps.reduce((sum, g) => sum + g.ledger, 0))).toBe(cents(row.amount));
    for (const gap of gaps) {
      expect(gap.day).toBe(today());
      expect(gap.share).toBeCloseTo(0.05 / 1.05, 3);
    }
    expect(cents(row.meta_amount!)).toBe(cents(row.amount * 1.05));
    expect(metrics.some((m) => m.CostGaps >= 1)).toBe(true);
  });
});

describe('GET /v1/usage: who may ask, and for what (decisions §24)', () => {
  const usage = async (query: string, as: () => Promise<string> = owner) => call('GET', `/v1/usage?${query}`, { token: await as() });

  it('answers an agent for its own client, and refuses it another’s (403)', async () => {
    // Prepare / Act
    const own = await usage(`from=${today()}&to=${today()}`);
    const named = await usage(`client_id=${CLIENT}&from=${today()}&to=${today()}`);
    const other = await usage(`client_id=7&from=${today()}&to=${today()}`);
    // Assess
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ client_id: CLIENT, currency: 'USD', group_by: 'day' });
    expect(named.status).toBe(200);
    expectErrorShape(other, 403);
  });

  it('needs client_id from BSP_CN (400), and then answers any client', async () => {
    // Prepare / Act
    const unnamed = await usage(`from=${today()}&to=${today()}`, tokens.bsp);
    const named = await usage(`client_id=${CLIENT}&from=${today()}&to=${today()}&group_by=did`, tokens.bsp);
    // Assess
    expectErrorShape(unnamed, 400);
    expect(named.status).toBe(200);
    expect(named.body.data).toEqual([expect.objectContaining({ did: DID, messages: 1_000, billable: 1_000 })]);
  });

  it('refuses dates that are not dates, a period that ends before it starts, over 366 days, and an unknown grouping (400)', async () => {
    // Prepare / Act
    const answers = await Promise.all([
      usage('from=2026-13-45&to=2026-11-26'),
      usage('from=2026-02-30&to=2026-03-02'),
      usage('from=yesterday&to=2026-11-26'),
      usage('to=2026-11-26'),
      usage('from=2026-11-26&to=2026-11-01'),
      usage('from=2025-01-01&to=2026-01-02'),
      usage(`from=${today()}&to=${today()}&group_by=week`),
    ]);
    // Assess
    for (const answer of answers) expectErrorShape(answer, 400);
  });
});

describe('Meta’s volume tier webhook (upstream-facts §8)', () => {
  it('is taken: the service answers account_update 200', async () => {
    // Prepare
    const before = Date.now();
    // Act
    await emulator('POST', 'account-update', { waba_id: WABA });
    const delivered = await until(
      async () => (await emulator('GET', 'notifications')).notifications as { at: number; field: string; status: number | string }[],
      (list) => list.some((n) => n.field === 'account_update' && n.at >= before && n.status === 200),
      10_000,
    );
    // Assess
    expect(delivered.some((n) => n.field === 'account_update' && n.at >= before && n.status === 200)).toBe(true);
  });
});
