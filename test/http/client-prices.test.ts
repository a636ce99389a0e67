import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { routes } from '#lib/manifest/routes.ts';
import { apiUrl, call, emulator, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { pdfText } from '../support/pdf-text.ts';
import { until } from '../support/until.ts';

/**
 * What a client pays, and what its agents never see (decisions §27, §32, issue 52 item 2), on the running local
 * stack: client 550's price list is Meta's cost plus 37.5 %, with a fixed price for marketing to Mexico. A
 * MARKETING send to 10 Mexican and 10 Brazilian numbers, all delivered. Its agent sees prices; every GET route's
 * answer to it (JSON, and the CSV and PDF where a route offers them) is walked, and no number in them may equal a
 * cost, margin or markup figure of the client as BSP_CN sees them. (Events carry a send's money only when it is
 * paused or resumed: test/unit/use-cases/agent-money-visibility.test.ts covers their view.)
 */
const client = new OwnClient(550);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const MEXICO = Array.from({ length: 10 }, (_, i) => `52${run}1${String(i).padStart(4, '0')}`);
const BRAZIL = Array.from({ length: 10 }, (_, i) => `55${run}1${String(i).padStart(4, '0')}`);
const FIXED_MEXICO = 0.05;
/** Not a whole number, so no count or date of an answer can equal it by chance. */
const MARKUP = 37.5;
const today = () => new Date().toISOString().slice(0, 10);
const month = () => today().slice(0, 7);
const micros = (amount: number) => Math.round(amount * 1e6);
const rate = (market: string) => rateCards.priceMicros(market, 'marketing', today());
/** Brazil's marketing rate today plus the markup, as the list prices it (to the micro-unit). */
const brazilPrice = () => Math.round((rate('Brazil') * (100 + MARKUP)) / 100) / 1e6;

/** Keys under which a BSP_CN answer carries Meta's cost, the margin or the markup. */
const SECRET_KEYS = new Set(['cost', 'margin', 'markup_percent', 'meta_amount']);
/** Counts a cost object carries beside its amounts (`billable`, a category's `messages`): not money. */
const COUNT_KEYS = new Set(['billable', 'messages']);
/** Every amount under a secret key of a body (usage rows' `amount` is Meta's cost for BSP_CN too). */
const secretsIn = (value: unknown, secret = false): number[] => {
  if (typeof value === 'number') return secret ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => secretsIn(item, secret));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value)
    .filter(([key]) => !COUNT_KEYS.has(key))
    .flatMap(([key, item]) => secretsIn(item, secret || SECRET_KEYS.has(key)));
};
/** Every number of a JSON body, as given and as micro-units of an amount. */
const numbersIn = (value: unknown): number[] => {
  if (typeof value === 'number') return [value, micros(value)];
  if (value && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
};
/** Every number written in a text (CSV, PDF), as given and as micro-units. */
const numbersOfText = (text: string) => (text.match(/-?\d+(\.\d+)?/g) ?? []).map(Number).flatMap((n) => [n, micros(n)]);

/** Routes that answer the same document to anyone, without a token: walked for their status, not scanned. */
const PUBLIC_DOCUMENTS = new Set(['GetOpenApi', 'GetApiDocs', 'GetConsole']);

/** Routes whose answers carry the client's money: each must answer, or the walk proves nothing. */
const MONEY_ROUTES = new Set([
  'GetSend',
  'ListSendRecipients',
  'ListSends',
  'GetUsage',
  'GetBudget',
  'GetStatement',
  'GetPriceList',
  'GetSendPerformance',
  'GetTemplatePerformance',
]);

let sendId: string;

beforeAll(async () => {
  await client.seed('Priced', [demoTemplateAs('order_update', { id: 't550', category: 'MARKETING' })]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
  const list = await call('PUT', `/v1/clients/${client.clientId}/price-list`, {
    token: await tokens.bsp(),
    body: { effective_from: today(), currency: 'USD', markup_percent: MARKUP, prices: { Mexico: { marketing: FIXED_MEXICO } } },
  });
  expect(list.status).toBe(200);
  const budget = await call('PUT', `/v1/clients/${client.clientId}/budget`, { token: await tokens.bsp(), body: { monthly_amount: 100 } });
  expect(budget.status).toBe(200);
  const accepted = await client.send('order_update', [...MEXICO, ...BRAZIL]);
  expect(accepted.status).toBe(200);
  sendId = accepted.body.send_id;
  await until(
    () => client.status(sendId),
    (s) => s.delivered === 20,
    60_000,
  );
}, 90_000);

/** A GET as the client's agent (or as BSP_CN), its body as JSON, CSV text or PDF text by what it accepts. */
async function get(
  path: string,
  accept = 'application/json',
  token?: string,
): Promise<{ status: number; numbers: number[]; body: unknown }> {
  const response = await fetch(`${apiUrl()}${path}`, {
    headers: { accept, ...(token !== '' && { authorization: `Bearer ${token ?? (await client.token())}` }) },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/pdf'))
    return { status: response.status, numbers: numbersOfText((await pdfText(bytes)).text), body: undefined };
  const text = new TextDecoder().decode(bytes);
  if (type.includes('application/json')) {
    const body = JSON.parse(text);
    return { status: response.status, numbers: numbersIn(body), body };
  }
  return { status: response.status, numbers: numbersOfText(text), body: text };
}

/** The requests that walk each GET route of the manifest as the client's agent (JSON, CSV and PDF where offered). */
async function walks(): Promise<Record<string, [path: string, accept?: string, token?: string][]>> {
  const stamp = `from=${today()}&to=${today()}`;
  const templates = (await get('/v1/templates?size=5')).body as { data?: { id?: string; _id?: string }[] };
  const record = templates.data?.[0]?.id ?? templates.data?.[0]?._id ?? '65a1b2c3d4e5f60718293a4b';
  const statement = `/v1/clients/${client.clientId}/statements/${month()}`;
  return {
    ListClientMsgChannels: [['/v1/client-msg-channels']],
    GetOnboarding: [[`/v1/clients/${client.clientId}/onboardings/0123456789abcdef0123456789abcdef`]],
    GetWebhookConfig: [['/v1/webhook/config']],
    ListWebhookDeliveries: [['/v1/webhook/deliveries?size=50']],
    ListCatalogs: [[`/v1/catalogs/${client.did}`]],
    ListProducts: [[`/v1/catalogs/${client.did}/products?catalog_id=cat-1&limit=5`]],
    ListTemplates: [['/v1/templates?size=5']],
    GetSyncStatus: [['/v1/templates/sync-from-meta']],
    GetChannelCampaignsGrouped: [[`/v1/templates/${record}/channel-campaigns-grouped`]],
    GetSend: [[`/v1/sends/${sendId}`]],
    ListSendRecipients: [[`/v1/sends/${sendId}/recipients?size=50`]],
    ListSends: [['/v1/sends?size=50']],
    GetSendPerformance: [[`/v1/sends/${sendId}/performance`]],
    GetTemplatePerformance: [[`/v1/templates/performance?${stamp}`], [`/v1/templates/performance?${stamp}`, 'text/csv']],
    GetUsage: ['day', 'month,did', 'market,category', 'template,category', 'send'].flatMap((groups) => [
      [`/v1/usage?${stamp}&group_by=${groups}`] as [string],
      [`/v1/usage?${stamp}&group_by=${groups}`, 'text/csv'] as [string, string],
    ]),
    GetUsageGaps: [[`/v1/usage/gaps?${stamp}`]],
    GetBudget: [[`/v1/clients/${client.clientId}/budget`]],
    GetStatement: [[statement], [statement, 'text/csv'], [statement, 'application/pdf']],
    GetPriceList: [[`/v1/clients/${client.clientId}/price-list`]],
    GetFrequencyCap: [[`/v1/clients/${client.clientId}/frequency-cap`]],
    ListSuppressions: [['/v1/suppressions']],
    GetSuppression: [[`/v1/suppressions/${MEXICO[0]}`]],
    VerifyMetaWebhook: [['/v1/meta/webhooks?hub.mode=subscribe&hub.challenge=4711&hub.verify_token=wrong', 'application/json', '']],
    GetOpenApi: [['/v1/openapi.json', 'application/json', '']],
    GetApiDocs: [['/v1/docs', 'text/html', '']],
    GetConsole: [['/console', 'text/html', '']],
  };
}

/** The client's cost, margin and markup figures as BSP_CN sees them, and as the rate card gives them, in micro-units. */
async function secretFigures(): Promise<Set<number>> {
  const bsp = await tokens.bsp();
  const asBsp = (path: string) => get(path, 'application/json', bsp);
  const usage = await asBsp(`/v1/usage?client_id=${client.clientId}&from=${today()}&to=${today()}&group_by=market,category`);
  const bodies = [
    (await asBsp(`/v1/sends/${sendId}`)).body,
    (await asBsp(`/v1/sends/${sendId}/recipients?size=50`)).body,
    (await asBsp(`/v1/clients/${client.clientId}/statements/${month()}`)).body,
    (await asBsp(`/v1/clients/${client.clientId}/price-list`)).body,
    usage.body,
  ];
  const usageCosts = ((usage.body as { data: { amount?: number }[] }).data ?? []).map((row) => row.amount ?? 0);
  const [mexico, brazil] = [rate('Mexico'), rate('Brazil')];
  const fromCard = [mexico, brazil, 10 * mexico, 10 * brazil, 10 * (mexico + brazil)];
  const margins = [micros(FIXED_MEXICO) - mexico, micros(brazilPrice()) - brazil].flatMap((m) => [m, 10 * m]);
  const figures = [...bodies.flatMap((body) => secretsIn(body)), ...usageCosts].map(micros);
  return new Set([...figures, ...fromCard, ...margins].filter((figure) => figure !== 0));
}

describe('a client’s price (decisions §27, §32)', () => {
  it('shows its agent no cost, margin or markup on any GET route, in JSON, CSV or PDF', async () => {
    // Prepare
    const figures = await secretFigures();
    const walked = await walks();
    const manifestGets = routes.filter((route) => route.method === 'GET').map((route) => route.name);
    // Act
    const answers = await Promise.all(
      Object.entries(walked).flatMap(([route, requests]) =>
        requests.map(async ([path, accept, token]) => ({ route, path, accept, ...(await get(path, accept, token)) })),
      ),
    );
    // Assess: every GET route is walked (a new one fails here until it is), none answers 500
    expect(Object.keys(walked).sort()).toEqual([...manifestGets].sort());
    expect(figures.size).toBeGreaterThan(10);
    for (const answer of answers) {
      expect(answer.status, `${answer.path} (${answer.accept})`).toBeLessThan(500);
      // The documents answered to anyone without a token hold no tenant's figure (a script's 10300 is not one).
      if (PUBLIC_DOCUMENTS.has(answer.route)) {
        expect(answer.status, answer.path).toBe(200);
        continue;
      }
      if (MONEY_ROUTES.has(answer.route)) expect(answer.status, `${answer.path} (${answer.accept})`).toBe(200);
      const leaked = answer.numbers.filter((n) => figures.has(n));
      expect(leaked, `${answer.route} ${answer.path} (${answer.accept}) shows a cost, margin or markup`).toEqual([]);
    }
  }, 90_000);

  it('shows its agent each recipient’s price, the send’s, its usage, statement and price table', async () => {
    // Act
    const send = (await get(`/v1/sends/${sendId}`)).body as Record<string, any>;
    const recipients = (await get(`/v1/sends/${sendId}/recipients?size=50`)).body as { data: { to: string; price: number }[] };
    const usage = (await get(`/v1/usage?from=${today()}&to=${today()}&group_by=market,category`)).body as { data: Record<string, any>[] };
    const statement = (await get(`/v1/clients/${client.clientId}/statements/${month()}`)).body as Record<string, any>;
    const prices = (await get(`/v1/clients/${client.clientId}/price-list`)).body as Record<string, any>;
    // Assess
    expect(micros(send.price.amount)).toBe(micros(10 * FIXED_MEXICO + 10 * brazilPrice()));
    expect(send.price.currency).toBe('USD');
    for (const row of recipients.data) expect(row.price).toBe(row.to.startsWith('52') ? FIXED_MEXICO : brazilPrice());
    const byMarket = Object.fromEntries(usage.data.map((r) => [r.market, r.price]));
    expect(micros(byMarket.Mexico)).toBe(micros(10 * FIXED_MEXICO));
    expect(micros(byMarket.Brazil)).toBe(micros(10 * brazilPrice()));
    expect(micros(statement.statements[0].totals.amount)).toBe(micros(send.price.amount));
    const lines = (statement.statements[0].lines as { market: string; unit_price: number; amount: number }[]).filter(
      (l) => l.market === 'Mexico' || l.market === 'Brazil',
    );
    expect(lines.map((l) => [l.market, l.unit_price, micros(l.amount)]).sort()).toEqual([
      ['Brazil', micros(brazilPrice()), micros(10 * brazilPrice())],
      ['Mexico', micros(FIXED_MEXICO), micros(10 * FIXED_MEXICO)],
    ]);
    expect(prices.in_force.prices.Mexico.marketing).toBe(FIXED_MEXICO);
    expect(prices.in_force.prices.Brazil.marketing).toBe(brazilPrice());
    expect(prices.in_force.markup_percent).toBeUndefined();
  });

  it('shows BSP_CN Meta’s cost, the client’s price, the margin between them and the markup', async () => {
    // Act
    const send = await call('GET', `/v1/sends/${sendId}`, { token: await tokens.bsp() });
    const recipients = await call('GET', `/v1/sends/${sendId}/recipients?size=50`, { token: await tokens.bsp() });
    const list = await call('GET', `/v1/clients/${client.clientId}/price-list`, { token: await tokens.bsp() });
    // Assess
    const { cost, price, margin } = send.body;
    expect(cost.amount).toBeGreaterThan(0);
    expect(micros(margin)).toBe(micros(price.amount) - micros(cost.amount));
    expect(margin).toBeGreaterThan(0);
    for (const row of recipients.body.data as { cost: number; price: number }[]) expect(row.price).toBeGreaterThan(row.cost);
    expect(list.body.in_force.markup_percent).toBe(MARKUP);
  });

  it('gives a dry run’s estimate in the client’s price, with no cost figure for its agent and the cost for BSP_CN', async () => {
    // Prepare
    const figures = await secretFigures();
    // Act
    const agent = await client.send('order_update', [...MEXICO, ...BRAZIL], { query: '?dry_run=true' });
    const bsp = await call('POST', `/v1/template/messages/${client.did}?dry_run=true`, {
      token: await tokens.bsp(),
      body: {
        did: client.did,
        client_id: client.clientId,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'order_update', language: 'en_US' },
        recipients: MEXICO.map((to) => ({ to, params: { body: ['x'] } })),
      },
    });
    // Assess
    expect(agent.body.estimate.by_market.Mexico).toEqual({ messages: 10, amount: 10 * FIXED_MEXICO });
    expect(micros(agent.body.estimate.by_market.Brazil.amount)).toBe(micros(10 * brazilPrice()));
    expect(agent.body.estimate.unpriced_markets).toBeUndefined();
    expect(agent.body.estimate.cost).toBeUndefined();
    expect(numbersIn(agent.body).filter((n) => figures.has(n))).toEqual([]);
    expect(bsp.body.estimate.cost.amount).toBeGreaterThan(0);
  });
});
