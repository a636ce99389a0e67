import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CANCEL_CHECK_MS } from '#lib/domain/sends/dispatch/tuning.ts';
import { call, emulator, expectErrorShape, meterOf, token } from '../support/api.ts';
import { seedDirectory, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Operating a send on the running local stack (decisions §22, issue 25): each recipient's result as the
 * dispatcher and Meta's status reports left it, and cancelling a send. Client 460 has its own WABA and number,
 * whose messages the emulator reports sent and delivered.
 */
const CLIENT = 460;
const OTHER = 461;
const DID = '5215546001';
const NUMBER_ID = 'p460001';
const WABA = 'w460';
const run = String(Math.floor(Math.random() * 1e5)).padStart(5, '0');
const numberOf = (test: number, i: number) => `53${run}${test}${String(i).padStart(4, '0')}`;

const demo = JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8'));
const orderUpdate = { ...demo.wabas[0].templates.find((t: { name: string }) => t.name === 'order_update'), id: 't460' };
const owner = () => token({ clientId: CLIENT, campaigns: [] });

beforeAll(async () => {
  await seedDirectory({
    clients: [
      { client_id: CLIENT, client_name: 'Operations' },
      { client_id: OTHER, client_name: 'Other' },
    ],
    wabas: [waba(WABA, [orderUpdate])],
    channels: [{ wa_id: DID, client_id: CLIENT, waba_id: WABA, phone_number_id: NUMBER_ID }],
  });
  await emulator('POST', 'wabas', { id: WABA, templates: [orderUpdate], phone_numbers: [{ id: NUMBER_ID }] });
  await emulator('POST', `numbers/${NUMBER_ID}/statuses`, { statuses: ['sent', 'delivered'] });
}, 60_000);

const send = async (recipients: string[], extra: { send_at?: string } = {}, query = '') =>
  call('POST', `/v1/template/messages/${DID}${query}`, {
    token: await owner(),
    body: {
      did: DID,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: 'order_update', language: 'en_US' },
      recipients: recipients.map((to) => ({ to, params: { body: [`A-${to}`] } })),
      ...extra,
    },
  });
const status = async (sendId: string) => (await call('GET', `/v1/sends/${sendId}`, { token: await owner() })).body;
const recipientsOf = async (sendId: string, query: string, as = owner) =>
  call('GET', `/v1/sends/${sendId}/recipients${query}`, { token: await as() });
/** Accept times at the emulator of these recipients' messages. */
/** When each of these recipients' messages left the dispatcher (the launch stamp the emulator keeps). */
async function launchedAt(numbers: string[]) {
  const wanted = new Set(numbers);
  const { sent } = await emulator('GET', 'sent');
  return (sent as { launched_at: number; message: { to: string } }[]).filter((m) => wanted.has(m.message.to)).map((m) => m.launched_at);
}

describe('each recipient’s result (decisions §22)', () => {
  const numbers = Array.from({ length: 200 }, (_, i) => numberOf(1, i));
  const refused = numbers.filter((_, i) => i % 10 === 3);
  let sendId: string;

  beforeAll(async () => {
    // The emulator refuses 20 of the 200: half undeliverable (131026), half opted out of marketing (131050)
    for (const [k, to] of refused.entries())
      await emulator('POST', 'faults', {
        path: `/${NUMBER_ID}/messages`,
        body: `"to":"${to}"`,
        status: 400,
        code: k % 2 ? 131050 : 131026,
        times: 1,
      });
    const accepted = await send(numbers);
    expect(accepted.status).toBe(200);
    sendId = accepted.body.send_id;
    await until(
      () => status(sendId),
      (s) => s.pending === 0,
      60_000,
      200,
    );
    // Every test below reads the settled send: its 180 deliveries applied (asserted, so a slow machine says so here)
    const settled = await until(
      () => status(sendId),
      (s) => s.delivered === 180,
      60_000,
      200,
    );
    expect(settled.delivered).toBe(180);
  }, 150_000);

  it('lists exactly the refused recipients under failed, with their codes, in pages of 50 reading at most 60 items', async () => {
    // Act
    const page = await recipientsOf(sendId, '?status=failed&size=50');
    const all = await recipientsOf(sendId, '?page=2&size=50');
    // Assess
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(20);
    expect(page.body.data.map((r: { to: string }) => r.to)).toEqual(refused);
    expect(page.body.data.map((r: { error: { code: string } }) => r.error.code)).toEqual(
      refused.map((_, k) => (k % 2 ? '131050' : '131026')),
    );
    expect(page.body.data[0]).toMatchObject({ index: 3, status: 'failed', updated_at: expect.any(String) });
    expect(all.body).toMatchObject({ total: 200, page: 2, page_size: 50 });
    expect(all.body.data.map((r: { index: number }) => r.index)).toEqual(Array.from({ length: 50 }, (_, i) => 50 + i));
    expect((await meterOf(page)).itemsRead).toBeLessThanOrEqual(60);
    expect((await meterOf(all)).itemsRead).toBeLessThanOrEqual(60);
    const sendStatus = await status(sendId);
    expect(sendStatus.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: '131026', count: 10 }),
        expect.objectContaining({ code: '131050', count: 10 }),
      ]),
    );
  });

  it('follows the emulator’s status reports: delivered, then read for the ones it reports read', async () => {
    // Prepare: the emulator reports the first five sent messages read
    const delivered = await recipientsOf(sendId, '?status=delivered&size=5');
    for (const r of delivered.body.data as { message_id: string }[])
      await emulator('POST', `messages/${encodeURIComponent(r.message_id)}/status`, { status: 'read' });
    // Act
    const read = await until(
      () => recipientsOf(sendId, '?status=read&size=50'),
      (r) => r.body.total === 5,
      20_000,
      200,
    );
    const stillDelivered = await recipientsOf(sendId, '?status=delivered&size=50&page=4');
    // Assess
    expect(read.body.data.map((r: { index: number }) => r.index)).toEqual(delivered.body.data.map((r: { index: number }) => r.index));
    expect(stillDelivered.body).toMatchObject({ total: 175, page: 4 });
    expect(stillDelivered.body.data).toHaveLength(25);
    expect((await meterOf(stillDelivered)).itemsRead).toBeLessThanOrEqual(60);
    expect((await recipientsOf(sendId, '?status=sent')).body.total).toBe(0);
  });

  it('answers 400 for an unknown status or size, and 404 for another client’s send', async () => {
    expectErrorShape(await recipientsOf(sendId, '?status=bounced'), 400);
    expectErrorShape(await recipientsOf(sendId, '?size=many'), 400);
    expectErrorShape(await recipientsOf(sendId, '', () => token({ clientId: OTHER, campaigns: [] })), 404);
    expect((await recipientsOf(sendId, '?size=1', () => token({ clientId: OTHER, bsp: true }))).body.total).toBe(200);
  });
});

describe('cancel (decisions §22)', () => {
  const cancel = async (sendId: string, as = owner) => call('POST', `/v1/sends/${sendId}/cancel`, { token: await as() });

  it('sends nothing after the cancel’s answer and one check, and settles every recipient once', async () => {
    // Prepare: a send of 2,000, its first messages out
    const numbers = Array.from({ length: 2000 }, (_, i) => numberOf(2, i));
    const accepted = await send(numbers);
    const sendId = accepted.body.send_id;
    await until(
      () => status(sendId),
      (s) => s.sent >= 90,
      30_000,
      100,
    );
    // Act
    const answer = await cancel(sendId);
    const final = await until(
      () => status(sendId),
      (s) => s.pending === 0,
      60_000,
      200,
    );
    const again = await cancel(sendId);
    // Assess
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ send_id: sendId, status: 'cancelled' });
    const times = await launchedAt(numbers);
    // On the service's own times: no launch later than one check interval and one small read after the cancel
    // was recorded (the launch stamps, not the emulator's accept times, which hold this process's stalls)
    const cancelledAt = Date.parse(final.cancelled_at);
    expect(Math.max(...times)).toBeLessThanOrEqual(cancelledAt + CANCEL_CHECK_MS + 250);
    expect(final.status).toBe('cancelled');
    expect(final.cancelled).toBeGreaterThan(0);
    expect(final.sent + final.cancelled + final.failed + final.duplicates_removed).toBe(2000);
    expect(final.sent).toBe(times.length);
    expect(again.status).toBe(202);
    const dispatched = ({ status, sent, cancelled, failed, pending, cancelled_at }: Record<string, unknown>) => ({
      status,
      sent,
      cancelled,
      failed,
      pending,
      cancelled_at,
    });
    expect(dispatched(await status(sendId))).toEqual(dispatched(final));
    const listed = await recipientsOf(sendId, '?status=cancelled&size=1');
    expect(listed.body.total).toBe(final.cancelled);
  }, 120_000);

  it('answers 409 send_completed for a completed send, and 404 for another client’s or an unknown send', async () => {
    // Prepare
    const accepted = await send([numberOf(3, 1)]);
    await until(
      () => status(accepted.body.send_id),
      (s) => s.pending === 0,
      20_000,
      100,
    );
    // Act / Assess
    expectErrorShape(await cancel(accepted.body.send_id), 409, 'send_completed');
    expectErrorShape(await cancel(accepted.body.send_id, () => token({ clientId: OTHER, campaigns: [] })), 404);
    expectErrorShape(await cancel('no-such-send'), 404);
  }, 30_000);
});

describe('warnings before a send (decisions §22)', () => {
  // A client of its own: the service keeps a WABA's limits a minute, so no other send here reads them first.
  const WARNED = 462;
  const WARNED_DID = '5215546201';
  const promoImage = { ...demo.wabas[0].templates.find((t: { name: string }) => t.name === 'promo_image'), id: 't462' };
  const warnedSend = async (recipients: number, query = '') =>
    call('POST', `/v1/template/messages/${WARNED_DID}${query}`, {
      token: await token({ clientId: WARNED, campaigns: [] }),
      body: {
        did: WARNED_DID,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'promo_image', language: 'en_US' },
        component: { header: { type: 'image_url', value: 'https://cdn.example.com/new.png' } },
        recipients: Array.from({ length: recipients }, (_, i) => ({ to: numberOf(4, i), params: { body: ['May'] } })),
      },
    });

  beforeAll(async () => {
    await seedDirectory({
      clients: [{ client_id: WARNED, client_name: 'Warned' }],
      wabas: [waba('w462', [promoImage])],
      channels: [{ wa_id: WARNED_DID, client_id: WARNED, waba_id: 'w462', phone_number_id: 'p462001' }],
    });
    await emulator('POST', 'wabas', { id: 'w462', templates: [promoImage], phone_numbers: [{ id: 'p462001' }] });
    // Act (for both tests): the portfolio may reach 250 users a day, and the number is rated RED
    await emulator('POST', 'wabas/w462/messaging-limit', { limit: 'TIER_250' });
    await emulator('POST', 'numbers/p462001/quality', { quality_rating: 'RED' });
  }, 60_000);

  it('answers a send over the messaging limit 200 with the warning, and queues it all the same', async () => {
    // Act
    const dry = await warnedSend(300, '?dry_run=true');
    const sent = await warnedSend(300);
    // Assess
    expect(dry.status).toBe(200);
    // (these made-up numbers are not valid numbers of their region: the dry run alone says so, decisions §26)
    const ofTheSend = (dry.body.warnings as { code: string }[]).filter((w) => w.code !== 'numbers_not_valid_for_region');
    expect(ofTheSend.map((w) => w.code)).toEqual(['messaging_limit_exceeded', 'number_quality_red']);
    expect(sent.status).toBe(200);
    expect(sent.body.warnings).toEqual(ofTheSend);
    const accepted = await call('GET', `/v1/sends/${sent.body.send_id}`, { token: await token({ clientId: WARNED, campaigns: [] }) });
    expect(accepted.body.total).toBe(300);
  });

  it('gives no limit warning to a send within the limit', async () => {
    const dry = await warnedSend(250, '?dry_run=true');
    // Whether libphonenumber-js takes this run's made-up numbers for valid depends on its random prefix
    const codes = dry.body.warnings.map((w: { code: string }) => w.code).filter((c: string) => c !== 'numbers_not_valid_for_region');
    expect(codes).toEqual(['number_quality_red']);
  });
});

describe('send_at (decisions §22)', () => {
  const withSendAt = (sendAt: string, query = '') => send([numberOf(5, 1)], { send_at: sendAt }, query);

  it('answers 400 for a time more than 30 days ahead, more than a minute past, or not RFC 3339, in a send and its dry run', async () => {
    const far = new Date(Date.now() + 31 * 86_400_000).toISOString();
    const past = new Date(Date.now() - 5 * 60_000).toISOString();
    expect(expectErrorShape(await withSendAt(far), 400).details).toEqual([{ path: 'send_at', message: 'must be at most 30 days ahead' }]);
    expect(expectErrorShape(await withSendAt(past, '?dry_run=true'), 400).details?.[0].path).toBe('send_at');
    expectErrorShape(await withSendAt('tomorrow at noon'), 400);
  });

  it('answers scheduled, shows scheduled until its time, and its dry run ignores the time', async () => {
    // Act
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const dry = await withSendAt(sendAt, '?dry_run=true');
    const sent = await withSendAt(sendAt);
    const shown = await status(sent.body.send_id);
    const cancelled = await call('POST', `/v1/sends/${sent.body.send_id}/cancel`, { token: await owner() });
    // Assess
    expect(dry.body).toMatchObject({ success: true, dry_run: true, valid: 1 });
    expect(sent.body).toEqual({ success: true, send_id: expect.any(String), status: 'scheduled', estimate: expect.any(Object) });
    expect(shown).toMatchObject({ status: 'scheduled', send_at: sendAt, pending: 1 });
    expect(cancelled.status).toBe(202);
    expect((await status(sent.body.send_id)).status).toBe('cancelled');
  });
});
