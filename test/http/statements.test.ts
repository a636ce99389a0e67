import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ledgerUpdate } from '#lib/adapters/dynamo/sends/send-items.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { apiUrl, call, emulator, expectErrorShape, token, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { pdfText } from '../support/pdf-text.ts';

/**
 * Monthly statements on the running local stack (decisions §27). Client 570 sends through the emulator (this month,
 * open); its past months are written to the ledger through the DynamoDB adapter's own ledger update, as the
 * status path writes it: the stack runs on the real clock, so a month two months back is closed (from the 3rd of
 * the month after it) and the month after it closed or open by the day, and a charge written after a closed
 * month's first read is the late charge. The closed month is read first: a read of a later month keeps the two
 * closed months before it (KEEP_BEFORE in lib/domain/money/statements/statement.ts), and so would freeze the month after
 * the closed one before the late charge. Client 571 is another client's agent; 579 is no client.
 */
const client = new OwnClient(570);
const table = serviceTable();
const monthOf = (back: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
};
const THIS_MONTH = monthOf(0);
/** Closed whatever the day: the 3rd of the month after it has passed. */
const CLOSED = monthOf(2);
const AFTER_CLOSED = monthOf(1);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');

/** Charges of a past day, written as the status path writes them (one ledger update, in a transaction). */
async function ledgerCharge(day: string, market: string, category: string, messages: number, micros: number) {
  const owner = { waba_id: client.waba, client_id: client.clientId, did: client.did };
  await table.client.send(
    new TransactWriteCommand({
      TransactItems: [
        ledgerUpdate(table.name, owner, day, new Map([[`${market}|${category}|USD`, { messages, billable: messages, micros }]])),
      ],
    }),
  );
}

const statementPath = (month: string, clientId = client.clientId) => `/v1/clients/${clientId}/statements/${month}`;
const read = async (month: string, as: () => Promise<string> = client.token) => call('GET', statementPath(month), { token: await as() });
/** The statement as CSV or PDF. */
const fetchAs = async (month: string, accept: string) =>
  fetch(`${apiUrl()}${statementPath(month)}`, { headers: { authorization: `Bearer ${await client.token()}`, accept } });

type Body = { statements: { currency: string; lines: Record<string, any>[]; totals: Record<string, number> }[]; [k: string]: any };

beforeAll(async () => {
  await client.seed('Statements', [demoTemplateAs('order_update', { id: 't570' })]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered', 'read'] });
  // The closed month's charges, before any read of a month after it keeps it.
  await ledgerCharge(`${CLOSED}-10`, 'Mexico', 'marketing', 4, 4 * 43_600);
  await ledgerCharge(`${CLOSED}-11`, 'Mexico', 'marketing', 2, 2 * 43_600);
  await ledgerCharge(`${CLOSED}-12`, 'India', 'utility', 5, 5 * 1_400);
}, 60_000);

describe('a closed month (decisions §27)', () => {
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
    expect(first.lines_sha256).toMatch(/^[0-9a-f]{64}$/);
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
    // PDF: header, period, lines, totals, currency, versions, status and hash
    expect(pages).toBe(1);
    expect(text).toContain('Template Messaging Service');
    expect(text).toContain(`Statement of ${CLOSED} (CLOSED)`);
    expect(text).toContain('Client: Statements (client_id 570)');
    expect(text).toContain(`Period: ${first.period.from} to ${first.period.to}`);
    expect(text).toContain('Currency: USD');
    expect(text).toContain(`Total USD: ${first.statements[0].totals.amount.toFixed(6)}`);
    expect(text).toContain(first.card_versions[0]);
    expect(text).toContain(first.lines_sha256);
  });

  it('never changes after a late charge, which the month after bills as an adjustment', async () => {
    // Prepare: a charge of the closed month reaches the ledger after its first read
    await ledgerCharge(`${CLOSED}-28`, 'Mexico', 'marketing', 3, 3 * 43_600);
    await ledgerCharge(`${CLOSED}-28`, 'Brazil', 'authentication', 1, 6_800);
    // Act
    const again = await read(CLOSED);
    const after = await read(AFTER_CLOSED);
    // Assess
    expect(again.body).toEqual(first);
    expect(after.status).toBe(200);
    const adjustments = (after.body as Body).statements[0].lines.filter((l) => l.kind === 'adjustment');
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
    expect((after.body as Body).statements[0].totals.amount).toBe(0.1376);
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
    expect(usd.lines.map((l) => [l.kind, l.market, l.category, l.messages])).toEqual([
      ['charge', 'Brazil', 'utility', 1],
      ['charge', 'Mexico', 'utility', 2],
    ]);
    for (const line of usd.lines) expect(line.amount).toBeCloseTo((line.unit_price * line.billable) / 1e6, 6);
    expect(usd.totals.messages).toBe(3);
    expect(usd.totals.amount).toBeCloseTo(send.cost.amount, 6);
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
