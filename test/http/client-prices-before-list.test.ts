import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { apiUrl, call, emulator, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { pdfText } from '../support/pdf-text.ts';
import { until } from '../support/until.ts';

/**
 * What was billed before a client's first price list, as its agent sees it once a list is set (decisions §32, issue
 * 52 item 2), on the running local stack: client 667 sends MARKETING to 10 Mexican numbers, all delivered at Meta's
 * cost; then BSP_CN puts a list from tomorrow. The agent's send, its recipients, the list of sends and this month's
 * statement (JSON, CSV, PDF) hold no number equal to the card's cost of those messages; BSP_CN still sees it.
 */
const client = new OwnClient(667);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const MEXICO = Array.from({ length: 10 }, (_, i) => `52${run}7${String(i).padStart(4, '0')}`);
/** Not a whole number, so no count or date of an answer can equal it by chance. */
const MARKUP = 37.5;
const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const month = () => today().slice(0, 7);
const micros = (amount: number) => Math.round(amount * 1e6);

/** Every number of a JSON body, as given and as micro-units of an amount. */
const numbersIn = (value: unknown): number[] => {
  if (typeof value === 'number') return [value, micros(value)];
  if (value && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
};
/** Every number written in a text (CSV, PDF), as given and as micro-units. */
const numbersOfText = (text: string) => (text.match(/-?\d+(\.\d+)?/g) ?? []).map(Number).flatMap((n) => [n, micros(n)]);

/** The card's cost of the send's messages, one and all ten, in micro-units (what the numbers are compared as). */
const costFigures = () => {
  const unit = rateCards.priceMicros('Mexico', 'marketing', today());
  return new Set([unit, 10 * unit]);
};

let sendId: string;

beforeAll(async () => {
  await client.seed('Priced later', [demoTemplateAs('order_update', { id: 't667', category: 'MARKETING' })]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
  const accepted = await client.send('order_update', MEXICO);
  expect(accepted.status).toBe(200);
  sendId = accepted.body.send_id;
  await until(
    () => client.status(sendId),
    (s) => s.delivered === 10,
    60_000,
  );
  const list = await call('PUT', `/v1/clients/${client.clientId}/price-list`, {
    token: await tokens.bsp(),
    body: { effective_from: tomorrow(), currency: 'USD', markup_percent: MARKUP },
  });
  expect(list.status).toBe(200);
}, 90_000);

/** A GET as the client's agent (or with another token), its body as JSON, CSV text or PDF text by what it accepts. */
async function get(path: string, accept = 'application/json', token?: string) {
  const response = await fetch(`${apiUrl()}${path}`, {
    headers: { accept, authorization: `Bearer ${token ?? (await client.token())}` },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/pdf')) {
    const text = (await pdfText(bytes)).text;
    return { status: response.status, numbers: numbersOfText(text), body: text as unknown };
  }
  const text = new TextDecoder().decode(bytes);
  if (type.includes('application/json')) {
    const body = JSON.parse(text);
    return { status: response.status, numbers: numbersIn(body), body };
  }
  return { status: response.status, numbers: numbersOfText(text), body: text as unknown };
}

describe('what was billed before a client’s first price list (decisions §32)', () => {
  it('shows its agent no number equal to its cost on the send, its recipients, the sends or the statement', async () => {
    // Prepare
    const figures = costFigures();
    const statement = `/v1/clients/${client.clientId}/statements/${month()}`;
    const paths: [string, string?][] = [
      [`/v1/sends/${sendId}`],
      [`/v1/sends/${sendId}/recipients?size=50`],
      ['/v1/sends?size=50'],
      [statement],
      [statement, 'text/csv'],
      [statement, 'application/pdf'],
    ];
    // Act
    const answers = await Promise.all(paths.map(async ([path, accept]) => ({ path, accept, ...(await get(path, accept)) })));
    // Assess
    for (const answer of answers) {
      expect(answer.status, `${answer.path} (${answer.accept})`).toBe(200);
      const leaked = answer.numbers.filter((n) => figures.has(n));
      expect(leaked, `${answer.path} (${answer.accept}) shows the cost`).toEqual([]);
    }
    const [send, recipients, , json, csv, pdf] = answers.map((answer) => answer.body) as any[];
    expect(send).toMatchObject({ delivered: 10, unpriced: true });
    expect(send).not.toHaveProperty('cost');
    expect(recipients.data.every((r: Record<string, unknown>) => r.unpriced === true && !('cost' in r))).toBe(true);
    const mexico = json.statements[0].lines.find((l: Record<string, unknown>) => l.market === 'Mexico');
    expect(mexico).toMatchObject({ messages: 10, billable: 10, priced: false });
    expect(mexico).not.toHaveProperty('amount');
    expect(json.statements[0].totals).toMatchObject({ amount: 0, unpriced_messages: 10 });
    expect(csv).toMatch(/,false,/);
    expect(pdf).toContain('not priced');
  }, 60_000);

  it('still shows BSP_CN the cost of the send and on the statement', async () => {
    // Prepare
    const figures = costFigures();
    const bsp = await tokens.bsp();
    // Act
    const send = await get(`/v1/sends/${sendId}`, 'application/json', bsp);
    const statement = await get(`/v1/clients/${client.clientId}/statements/${month()}`, 'application/json', bsp);
    // Assess
    expect(figures.has(micros((send.body as { cost: { amount: number } }).cost.amount))).toBe(true);
    expect(statement.numbers.some((n) => figures.has(n))).toBe(true);
  });
});
