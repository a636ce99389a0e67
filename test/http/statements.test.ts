import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ledgerWrites } from '#lib/adapters/dynamo/money/ledger-items.ts';
import { keys } from '#lib/adapters/dynamo/table.ts';
import { lastMonthToClose } from '#lib/domain/money/statements/months.ts';
import { dayStartMs, monthAfter } from '#lib/domain/shared/calendar.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { apiUrl, call, emulator, expectErrorShape, token, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { closeStatements } from '../support/scheduled-workers.ts';
import { pdfText } from '../support/pdf-text.ts';

/**
 * Monthly statements on the running local stack (decisions §27, §30). Client 570 sends through the emulator (this
 * month, open); its past months are written to the ledger through the DynamoDB adapter's own ledger writes, as the
 * status path writes them, applied on their day or now. The stack runs on the real clock: a month two months back is
 * past its close time, and the close job (its worker's handler, run as its schedule runs it) closes it; a charge of
 * it applied now is the late charge, filed under the month open now and billed there. Client 571 is another client's agent; 579 is no client.
 */
const client = new OwnClient(570);
const table = serviceTable();
const monthOf = (back: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
};
const THIS_MONTH = monthOf(0);
/** Past its close time whatever the day: the 3rd of the month after it has passed. */
const CLOSED = monthOf(2);
/** The first month the close job has not closed: it bills the closed months' late charges. */
const FIRST_OPEN = monthAfter(lastMonthToClose(Date.now()));
/** Before the client's first charge: no statement. */
const BEFORE_FIRST = monthOf(3);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');

/**
 * Charges of a past day, written as the status path writes them (its ledger writes, in a transaction), applied at
 * noon of their day (on time) or, `late`, now: after their month closed, so filed under the month open now.
 */
async function ledgerCharge(day: string, market: string, category: string, messages: number, micros: number, late = false) {
  const owner = { waba_id: client.waba, client_id: client.clientId, did: client.did };
  const charges = new Map([[day, new Map([[`${market}|${category}|USD`, { messages, billable: messages, micros }]])]]);
  const appliedAt = late ? Date.now() : dayStartMs(day) + 12 * 3_600_000;
  await table.client.send(new TransactWriteCommand({ TransactItems: ledgerWrites(table.name, owner, charges, appliedAt) }));
}

const statementPath = (month: string, clientId = client.clientId) => `/v1/clients/${clientId}/statements/${month}`;
const read = async (month: string, as: () => Promise<string> = client.token) => call('GET', statementPath(month), { token: await as() });
/** The statement as CSV or PDF. */
const fetchAs = async (month: string, accept: string) =>
  fetch(`${apiUrl()}${statementPath(month)}`, { headers: { authorization: `Bearer ${await client.token()}`, accept } });

type Body = {
  statements: { currency: string; lines: Record<string, any>[]; totals: Record<string, number>; amount_due: Record<string, number> }[];
  [k: string]: any;
};

/** Whether the table holds a closed statement of the client's month. */
const keptItem = async (month: string) =>
  (await table.client.send(new GetCommand({ TableName: table.name, Key: { pk: keys.client(client.clientId), sk: keys.statement(month) } })))
    .Item !== undefined;

let beforeClose: Body;

beforeAll(async () => {
  await client.seed('Statements', [demoTemplateAs('order_update', { id: 't570' })]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered', 'read'] });
  // The closed month's charges, read once before the close job runs (a read never closes), then closed.
  await ledgerCharge(`${CLOSED}-10`, 'Mexico', 'marketing', 4, 4 * 43_600);
  await ledgerCharge(`${CLOSED}-11`, 'Mexico', 'marketing', 2, 2 * 43_600);
  await ledgerCharge(`${CLOSED}-12`, 'India', 'utility', 5, 5 * 1_400);
  beforeClose = (await read(CLOSED)).body;
  expect(await keptItem(CLOSED)).toBe(false);
  const run = await closeStatements();
  expect(run.failed).toBe(0);
}, 60_000);

describe('a month past its close time (decisions §30)', () => {
  it('reads open from the ledger until the close job closes it, and the read writes nothing', () => {
    // Assess
    expect(beforeClose.status).toBe('open');
    expect(beforeClose.statements[0].totals).toEqual({ messages: 11, billable: 11, amount: 0.2686 });
    expect(beforeClose.closed_snapshot_at).toBeUndefined();
  });
});

describe('a closed month (decisions §27, §30)', () => {
  let first: Body;
  let csv: string;
  let pdf: Uint8Array;

  beforeAll(async () => {
    first = (await read(CLOSED)).body;
    csv = await (await fetchAs(CLOSED, 'text/csv')).text();
    pdf = new Uint8Array(await (await fetchAs(CLOSED, 'application/pdf')).arrayBuffer());
  }, 60_000);

  it('is closed, with its lines, totals and their sha256', () => {
    // Assess
    expect(first.status).toBe('closed');
    expect(first.closed_snapshot_at).toEqual(expect.any(String));
    expect(first.statements[0].lines.map((l) => [l.market, l.category, l.unit_price, l.messages, l.amount])).toEqual([
      ['India', 'utility', 1_400, 5, 0.007],
      ['Mexico', 'marketing', 43_600, 6, 0.2616],
    ]);
    expect(first.statements[0].totals).toEqual({ messages: 11, billable: 11, amount: 0.2686 });
    expect(first.statements[0].amount_due).toEqual({ amount: 0.27, minor_units: 27, minor_digits: 2 });
    expect(first.lines_sha256).toBe(beforeClose.lines_sha256);
    expect(first.number).toBe(`ST-570-${CLOSED.replace('-', '')}`);
    expect(first.rounding).toMatch(/half up/);
  });

  it('answers the same lines and totals as CSV and as a PDF a person reads', async () => {
    // Prepare
    const rows = csv
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    const column = (name: string) => rows[0].indexOf(name);
    const { text, pages } = await pdfText(pdf);
    // Assess: CSV, a row a line and a total row, with the JSON's totals and hash
    const total = rows.find((row) => row[column('kind')] === 'total')!;
    expect(rows).toHaveLength(1 + 2 + 1);
    expect(Number(total[column('amount')])).toBe(first.statements[0].totals.amount);
    expect(Number(total[column('messages')])).toBe(11);
    expect(total[column('lines_sha256')]).toBe(first.lines_sha256);
    expect(total[column('status')]).toBe('closed');
    expect(total[column('amount_due')]).toBe('0.27');
    expect(total[column('number')]).toBe(first.number);
    // PDF: header, period, lines, totals, currency, versions, status and hash
    expect(pages).toBe(1);
    expect(text).toContain('Template Messaging Service');
    expect(text).toContain(`Statement of ${CLOSED} (CLOSED)`);
    expect(text).toContain('Client: Statements (client_id 570)');
    expect(text).toContain(`Period: ${first.period.from} to ${first.period.to}`);
    expect(text).toContain('Currency: USD');
    expect(text).toContain(`Total USD: ${first.statements[0].totals.amount.toFixed(6)}`);
    expect(text).toContain('Amount due USD: 0.27');
    expect(text).toContain(`Statement number: ${first.number}`);
    expect(text).toContain(first.provider_address);
    expect(text).toContain(first.card_versions[0]);
    expect(text).toContain(first.lines_sha256);
  });

  it('never changes after a late charge, which the open month bills as an adjustment naming its month', async () => {
    // Prepare: a charge of the closed month reaches the ledger after the close job closed it
    await ledgerCharge(`${CLOSED}-28`, 'Mexico', 'marketing', 3, 3 * 43_600, true);
    await ledgerCharge(`${CLOSED}-28`, 'Brazil', 'authentication', 1, 6_800, true);
    // Act
    const again = await read(CLOSED);
    const rerun = await closeStatements();
    const afterRerun = await read(CLOSED);
    const open = await read(FIRST_OPEN);
    // Assess
    expect(again.body).toEqual(first);
    expect(rerun.failed).toBe(0);
    expect(afterRerun.body).toEqual(first);
    expect(open.status).toBe(200);
    const adjustments = (open.body as Body).statements[0].lines.filter((l) => l.kind === 'adjustment');
    expect(adjustments).toEqual([
      {
        kind: 'adjustment',
        market: 'Brazil',
        category: 'authentication',
        of_month: CLOSED,
        unit_price: 6_800,
        messages: 1,
        billable: 1,
        amount: 0.0068,
      },
      {
        kind: 'adjustment',
        market: 'Mexico',
        category: 'marketing',
        of_month: CLOSED,
        unit_price: 43_600,
        messages: 3,
        billable: 3,
        amount: 0.1308,
      },
    ]);
    expect(adjustments.reduce((sum, l) => sum + l.amount, 0)).toBeCloseTo(0.1376, 6);
  });
});

describe('this month’s statement: open, from the sends of the month (decisions §27)', () => {
  let send: Record<string, any>;

  beforeAll(async () => {
    const accepted = await client.send('order_update', [`5219${run}00001`, `5219${run}00002`, `5511${run}00003`]);
    expect(accepted.status).toBe(200);
    send = await client.settled(accepted.body.send_id, (s) => s.read === 3, 120_000);
  }, 150_000);

  it('has the sends’ messages on lines by market × category × unit price, open until the 3rd of next month', async () => {
    // Prepare / Act
    const answer = await read(THIS_MONTH);
    // Assess
    expect(answer.status).toBe(200);
    const body = answer.body as Body;
    expect(body).toMatchObject({ client_id: client.clientId, client_name: 'Statements', month: THIS_MONTH, status: 'open' });
    expect(body.statements.map((s) => s.currency)).toEqual(['USD']);
    const [usd] = body.statements;
    const charges = usd.lines.filter((l) => l.kind === 'charge');
    expect(charges.map((l) => [l.kind, l.market, l.category, l.messages])).toEqual([
      ['charge', 'Brazil', 'utility', 1],
      ['charge', 'Mexico', 'utility', 2],
    ]);
    for (const line of usd.lines) expect(line.amount).toBeCloseTo((line.unit_price * line.billable) / 1e6, 6);
    expect(charges.reduce((sum, l) => sum + l.messages, 0)).toBe(3);
    expect(charges.reduce((sum, l) => sum + l.amount, 0)).toBeCloseTo(send.cost.amount, 6);
    expect(JSON.stringify(body)).not.toMatch(/"cost"|margin/);
    expect(body.card_versions).toEqual([expect.stringMatching(/^meta-\d{4}-\d{2}-\d{2}-USD$/)]);
    expect(body.closed_snapshot_at).toBeUndefined();
  });

  it('shows BSP_CN the cost beside each line', async () => {
    // Prepare / Act
    const answer = await read(THIS_MONTH, tokens.bsp);
    // Assess
    expect(answer.status).toBe(200);
    for (const line of (answer.body as Body).statements[0].lines) expect(line.cost).toBe(line.amount);
  });
});

describe('who may read a statement, and which months (decisions §27)', () => {
  it('answers BSP_CN and the client’s own agent; another client’s agent 403; no such client 404', async () => {
    // Prepare / Act
    const [bsp, other, unknown] = await Promise.all([
      read(CLOSED, tokens.bsp),
      read(CLOSED, () => token({ clientId: 571, campaigns: [] })),
      call('GET', statementPath(CLOSED, 579), { token: await tokens.bsp() }),
    ]);
    // Assess
    expect(bsp.status).toBe(200);
    expectErrorShape(other, 403);
    expectErrorShape(unknown, 404);
  });

  it('answers 404 for a month before the client’s first charge, or of years 0000-0099, and writes nothing', async () => {
    // Prepare / Act
    const answers = await Promise.all([BEFORE_FIRST, '0099-01', '0000-12'].map((month) => read(month)));
    // Assess
    for (const answer of answers) expectErrorShape(answer, 404);
    expect(await keptItem('0099-01')).toBe(false);
    expect(await keptItem(BEFORE_FIRST)).toBe(false);
  });

  it('refuses a month not YYYY-MM, or in the future (400)', async () => {
    // Prepare
    const next = new Date();
    const future = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
    // Act
    const answers = await Promise.all(['2026-13', '2026-1', '202611', 'latest', '2026-00', future].map((month) => read(month)));
    // Assess
    for (const answer of answers) expectErrorShape(answer, 400);
    expect(answers.at(-1)!.body.message).toBe(`${future} is in the future`);
  });

  it('answers JSON to an Accept of JSON or anything', async () => {
    // Prepare / Act
    const answer = await fetchAs(CLOSED, 'application/json, application/pdf');
    // Assess
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
