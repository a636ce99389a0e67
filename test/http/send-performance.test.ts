import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceEvent } from '#lib/domain/webhooks/events.ts';
import { eventReceiver } from '../support/event-receiver.ts';
import { apiUrl, call, emulator, expectErrorShape, token } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * Which template worked (decisions §33), through the local stack: a send of 1,000 whose messages are all delivered
 * and read, the emulator's people answering some by quick-reply buttons and texts; the send's performance and the
 * client's template performance count what the emulator did, from the aggregates the status and inbound paths keep.
 */
const client = new OwnClient(700);
const other = new OwnClient(701);
const TOTAL = 1000;
const recipients = Array.from({ length: TOTAL }, (_, i) => `5217000${String(i).padStart(5, '0')}`);
const today = new Date().toISOString().slice(0, 10);
const dayAround = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
let sendId: string;
let receiver: Awaited<ReturnType<typeof eventReceiver<ServiceEvent & { data: Record<string, any> }>>>;

const performance = async (id: string, as = client) => call('GET', `/v1/sends/${id}/performance`, { token: await as.token() });
const replies = (body: Record<string, unknown>) => emulator('POST', 'replies', { send_id: sendId, ...body });

beforeAll(async () => {
  await client.seed('Performance', [demoTemplateAs('order_update', { id: 't700' })]);
  await other.seed('Performance, another', [demoTemplateAs('order_update', { id: 't701' })]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered', 'read'] });
  receiver = await eventReceiver();
  const hook = await call('PUT', '/v1/webhook/config', { token: await client.token(), body: { url: receiver.url, active: true } });
  expect(hook.status).toBe(200);
  // Prepare: the send, every message delivered and read before anyone answers
  const accepted = await client.send('order_update', recipients);
  expect(accepted.status).toBe(200);
  sendId = accepted.body.send_id;
  const done = await client.settled(sendId, (s) => s.pending === 0 && s.read === TOTAL, 150_000);
  expect(done).toMatchObject({ sent: TOTAL, delivered: TOTAL, read: TOTAL });
  // Act: 100 press “Yes”, 50 “No”, 30 answer by a text quoting the message, 20 write without quoting it; then
  // 10 of the first press “Yes” again (Meta's repeat) and 5 of them write too
  await replies({ count: 100, button: { payload: 'YES', text: 'Yes' } });
  await replies({ skip: 100, count: 50, button: { payload: 'NO', text: 'No' } });
  await replies({ skip: 150, count: 30, text: 'Thanks!' });
  await replies({ skip: 180, count: 20, text: 'A question', context: false });
  await replies({ count: 10, button: { payload: 'YES', text: 'Yes' } });
  await replies({ count: 5, text: 'and more', context: false });
}, 240_000);

afterAll(() => receiver?.close());

describe('GET /v1/sends/{send_id}/performance (decisions §33)', () => {
  it('counts what the emulator did: 1,000 read, 180 replied, 20 replied after, buttons by label, with intervals', async () => {
    // Act
    const answer = await until(
      () => performance(sendId),
      (r) => r.body.totals?.replied === 180 && r.body.totals?.replied_after === 20,
      60_000,
      500,
    );
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.totals).toMatchObject({
      sent: TOTAL,
      delivered: TOTAL,
      read: TOTAL,
      failed: 0,
      replied: 180,
      replied_after: 20,
      buttons: { Yes: 100, No: 50 },
    });
    expect(answer.body.totals.read_rate).toEqual({ rate: 1, low: expect.any(Number), high: 1 });
    expect(answer.body.totals.reply_rate.rate).toBe(0.18);
    expect(answer.body.totals.reply_rate.low).toBeLessThan(0.18);
    expect(answer.body.totals.reply_rate.high).toBeGreaterThan(0.18);
    expect(answer.body.variants).toEqual([expect.objectContaining({ variant: 0, template: { name: 'order_update', language: 'en_US' } })]);
    expect(answer.body.variants[0]).toMatchObject({ replied: 180, read: TOTAL });
    expect(answer.body.days.reduce((sum: number, d: { replied: number }) => sum + d.replied, 0)).toBe(180);
    expect(answer.body).not.toHaveProperty('comparison');
  });

  it('gives the recipients their reply and the button pressed', async () => {
    // Act
    const rows = await call('GET', `/v1/sends/${sendId}/recipients?page=1&size=100`, { token: await client.token() });
    const later = await call('GET', `/v1/sends/${sendId}/recipients?page=2&size=100`, { token: await client.token() });
    // Assess
    expect(rows.status).toBe(200);
    expect(rows.body.data[0]).toMatchObject({ replied_at: expect.any(String), button: { text: 'Yes', payload: 'YES' } });
    expect(rows.body.data.every((r: { button?: { text: string } }) => r.button?.text === 'Yes')).toBe(true);
    expect(later.body.data[0]).toMatchObject({ button: { text: 'No', payload: 'NO' } });
    expect(later.body.data[85]).toHaveProperty('replied_after_at');
    expect(later.body.data[85]).not.toHaveProperty('replied_at');
  });

  it('is not found for another client’s admin, and is BSP_CN’s to read', async () => {
    // Act
    const foreign = await performance(sendId, other);
    const bsp = await call('GET', `/v1/sends/${sendId}/performance`, { token: await token({ clientId: 1, bsp: true }) });
    const unknown = await performance('no-such-send');
    // Assess
    expectErrorShape(foreign, 404, 'not_found');
    expectErrorShape(unknown, 404, 'not_found');
    expect(bsp.status).toBe(200);
    expect(bsp.body.totals.replied).toBe(180);
  });
});

describe('GET /v1/templates/performance (decisions §33)', () => {
  it('gives the template’s day with the same figures, as JSON and as CSV', async () => {
    // Act
    const query = `from=${dayAround(-1)}&to=${dayAround(1)}`;
    const json = await call('GET', `/v1/templates/performance?${query}`, { token: await client.token() });
    const csv = await fetch(`${apiUrl()}/v1/templates/performance?${query}`, {
      headers: { authorization: `Bearer ${await client.token()}`, accept: 'text/csv' },
    });
    // Assess
    expect(json.status).toBe(200);
    const rows = json.body.data.filter((r: { template: string }) => r.template === 'order_update');
    const sum = (field: string) => rows.reduce((total: number, r: Record<string, number>) => total + r[field], 0);
    expect([sum('sent'), sum('delivered'), sum('read'), sum('replied'), sum('replied_after'), sum('button_replies')]).toEqual([
      TOTAL,
      TOTAL,
      TOTAL,
      180,
      20,
      150,
    ]);
    expect(json.body.templates).toEqual([
      expect.objectContaining({ template: 'order_update', replied: 180, buttons: { Yes: 100, No: 50 } }),
    ]);
    // Each row's day is its WABA's (decisions §31), within the days asked
    for (const row of rows) expect(row.day >= dayAround(-1) && row.day <= dayAround(1)).toBe(true);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const [header, ...lines] = (await csv.text()).trimEnd().split('\r\n');
    expect(header.split(',').slice(0, 7)).toEqual(['day', 'waba_id', 'template', 'language', 'sent', 'delivered', 'read']);
    expect(lines).toHaveLength(rows.length);
  });

  it('shows an admin only its own client’s templates, and BSP_CN the one it names', async () => {
    // Act
    const query = `from=${dayAround(-1)}&to=${dayAround(1)}`;
    const own = await call('GET', `/v1/templates/performance?${query}`, { token: await other.token() });
    const named = await call('GET', `/v1/templates/performance?${query}&client_id=700`, { token: await other.token() });
    const bsp = await call('GET', `/v1/templates/performance?${query}&client_id=700`, { token: await token({ clientId: 1, bsp: true }) });
    // Assess
    expect(own.body.data).toEqual([]);
    expectErrorShape(named, 403);
    expect(bsp.body.templates[0]).toMatchObject({ template: 'order_update', replied: 180 });
  });

  it('refuses days that are not dates, in the wrong order or over 92 days, with a 400', async () => {
    // Act
    const ask = async (query: string) => call('GET', `/v1/templates/performance?${query}`, { token: await client.token() });
    const answers = await Promise.all([
      ask(`from=${today}`),
      ask('from=2026-13-01&to=2026-13-02'),
      ask('from=2026-11-30&to=2026-11-01'),
      ask('from=2026-01-01&to=2026-06-01'),
      ask('from=yesterday&to=today'),
    ]);
    // Assess
    for (const answer of answers) expectErrorShape(answer, 400);
  });

  it('answers any query and send id with the contract’s status, never a 5xx (property)', async () => {
    // Prepare
    const text = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    );
    const asked = fc.record({
      from: text,
      to: text,
      client: fc.option(fc.oneof(fc.constant('700'), fc.string({ maxLength: 6 }))),
      id: fc.string(),
    });
    const own = await client.token();
    await fc.assert(
      fc.asyncProperty(asked, async ({ from, to, client: clientId, id }) => {
        const query = new URLSearchParams({ from, to, ...(clientId !== null && { client_id: clientId }) });
        // Act
        const templates = await call('GET', `/v1/templates/performance?${query}`, { token: own });
        const send = await call('GET', `/v1/sends/${encodeURIComponent(id) || 'x'}/performance`, { token: own });
        // Assess
        expect([200, 400, 403]).toContain(templates.status);
        expect([200, 400, 404]).toContain(send.status);
        if (templates.status !== 200) expectErrorShape(templates, templates.status);
        if (send.status !== 200) expectErrorShape(send, send.status);
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('send.completed (decisions §33)', () => {
  it('comes once, when the send has nothing pending, with its totals and performance', async () => {
    // Act
    const completed = await until(
      () => receiver.events.filter((e) => e.type === 'send.completed' && e.data.send_id === sendId),
      (found) => found.length > 0,
      60_000,
      250,
    );
    // Assess
    expect(completed).toHaveLength(1);
    expect(completed[0].data).toMatchObject({ status: 'completed', total: TOTAL, sent: TOTAL, pending: 0 });
    expect(completed[0].data.performance.totals.sent).toBe(TOTAL);
    expect(completed[0].data.performance.variants).toEqual([
      expect.objectContaining({ variant: 0, template: { name: 'order_update', language: 'en_US' }, sent: TOTAL }),
    ]);
    expect(completed[0].data.performance.totals).not.toHaveProperty('cost');
  });
});

describe('a message quoted after its person wrote otherwise (decisions §33)', () => {
  it('moves from replied_after to replied: counted once, never both', async () => {
    // Prepare: two people who had not answered write without quoting, and are counted replied_after
    await replies({ skip: 200, count: 2, text: 'A word first', context: false });
    const before = await until(
      () => performance(sendId),
      (r) => r.body.totals?.replied_after === 22,
      60_000,
      250,
    );
    // Act: then they quote the message
    await replies({ skip: 200, count: 2, text: 'Now about this' });
    const after = await until(
      () => performance(sendId),
      (r) => r.body.totals?.replied === 182,
      60_000,
      250,
    );
    const rows = await call('GET', `/v1/sends/${sendId}/recipients?page=3&size=100`, { token: await client.token() });
    // Assess: replied_after back to 20, on each day as on the whole; their rows the quote alone
    expect(before.body.totals).toMatchObject({ replied: 180, replied_after: 22 });
    expect(after.body.totals).toMatchObject({ replied: 182, replied_after: 20 });
    expect(after.body.days.reduce((sum: number, d: { replied_after: number }) => sum + d.replied_after, 0)).toBe(20);
    expect(rows.body.data.slice(0, 2)).toEqual([
      expect.objectContaining({ replied_at: expect.any(String) }),
      expect.objectContaining({ replied_at: expect.any(String) }),
    ]);
    for (const row of rows.body.data.slice(0, 2)) expect(row).not.toHaveProperty('replied_after_at');
  });
});
