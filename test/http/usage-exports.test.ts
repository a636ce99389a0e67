import { beforeAll, describe, expect, it } from 'vitest';
import { apiUrl, call, emulator, expectErrorShape } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * Usage exports (decisions §27) on the running local stack: client 572 sends two templates through the emulator,
 * whose statuses say sent, delivered and read; its usage is grouped by several groups at once, by template and
 * by send.
 */
const client = new OwnClient(572);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const today = () => new Date().toISOString().slice(0, 10);
const usage = async (groupBy: string) =>
  call('GET', `/v1/usage?from=${today()}&to=${today()}&group_by=${encodeURIComponent(groupBy)}`, { token: await client.token() });

type Row = Record<string, any>;
const sends: { id: string; cost: number; template: string; messages: number }[] = [];

beforeAll(async () => {
  await client.seed('Exports', [
    demoTemplateAs('order_update', { id: 't572' }),
    demoTemplateAs('order_update', { id: 't572b', name: 'order_update_b' }),
  ]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered', 'read'] });
  for (const [template, recipients] of [
    ['order_update', [`5219${run}00001`, `5511${run}00002`]],
    ['order_update_b', [`5219${run}00003`, `5219${run}00004`, `9198${run}0005`]],
  ] as const) {
    const accepted = await client.send(template, [...recipients]);
    expect(accepted.status).toBe(200);
    const settled = await client.settled(accepted.body.send_id, (s) => s.read === recipients.length, 120_000);
    sends.push({ id: accepted.body.send_id, cost: settled.cost.amount, template, messages: recipients.length });
  }
}, 300_000);

describe('GET /v1/usage with several groups (decisions §27)', () => {
  it('groups by market and category at once, each row naming client, period and currency', async () => {
    // Prepare / Act
    const answer = await usage('market,category');
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.group_by).toBe('market,category');
    const rows = answer.body.data as Row[];
    expect(rows.map((r) => [r.market, r.category, r.messages])).toEqual([
      ['Brazil', 'utility', 1],
      ['India', 'utility', 1],
      ['Mexico', 'utility', 3],
    ]);
    for (const row of rows) expect(row).toMatchObject({ client_id: 572, from: today(), to: today(), currency: 'USD' });
  });

  it('groups by send and by template (with category) from the sends’ own charges', async () => {
    // Prepare / Act
    const [bySend, byTemplate] = await Promise.all([usage('send,category'), usage('template')]);
    // Assess
    expect(bySend.status).toBe(200);
    const sendRows = bySend.body.data as Row[];
    expect(sendRows.map((r) => [r.send, r.category, r.messages]).sort()).toEqual(sends.map((s) => [s.id, 'utility', s.messages]).sort());
    for (const s of sends) expect(sendRows.find((r) => r.send === s.id)!.amount).toBeCloseTo(s.cost, 6);
    expect((byTemplate.body.data as Row[]).map((r) => [r.template, r.messages])).toEqual([
      ['order_update', 2],
      ['order_update_b', 3],
    ]);
  });

  it('writes the rows as CSV, each with client, currency, period and groups', async () => {
    // Prepare / Act
    const answer = await fetch(`${apiUrl()}/v1/usage?from=${today()}&to=${today()}&group_by=template,category`, {
      headers: { authorization: `Bearer ${await client.token()}`, accept: 'text/csv' },
    });
    const lines = (await answer.text())
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    // Assess
    expect(answer.status).toBe(200);
    const column = (name: string) => lines[0].indexOf(name);
    expect(lines).toHaveLength(3);
    for (const line of lines.slice(1)) {
      expect([line[column('client_id')], line[column('from')], line[column('to')], line[column('currency')]]).toEqual([
        '572',
        today(),
        today(),
        'USD',
      ]);
      expect(line[column('category')]).toBe('utility');
    }
    expect(lines.slice(1).map((line) => line[column('template')])).toEqual(['order_update', 'order_update_b']);
    const total = lines.slice(1).reduce((sum, line) => sum + Number(line[column('amount')]), 0);
    expect(total).toBeCloseTo(
      sends.reduce((sum, s) => sum + s.cost, 0),
      3,
    );
  });

  it('refuses a group_by it cannot answer with 400, naming the rule', async () => {
    // Prepare / Act
    const answers = await Promise.all(
      ['week', 'market,market', 'day,month', 'template,market', 'send,day', 'did,send', ',,,', 'market;category'].map(usage),
    );
    // Assess
    const messages = answers.map((answer) => expectErrorShape(answer, 400).message);
    expect(messages.slice(0, 5)).toEqual([
      'group_by: "week" is not one of day, month, market, category, did, template, send',
      'group_by names market twice',
      'group_by takes day or month, not both',
      'group_by template or send combines with category only (a send’s charges are kept by category)',
      'group_by template or send combines with category only (a send’s charges are kept by category)',
    ]);
  });
});
