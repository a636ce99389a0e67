import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { metaSignature } from '#lib/adapters/meta/webhook-signature.ts';
import { ApplyMetaNotifications } from '#lib/manifest/workers.ts';
import { LOCAL_META_APP_SECRET, LOCAL_META_VERIFY_TOKEN } from '../../local/stack.ts';
import { apiUrl, call, emulator, expectErrorShape, token } from '../support/api.ts';
import { hexId, seedDirectory, template, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Meta's webhooks through the running local stack (decisions §13): the emulator notifies the API signed, the
 * API queues, the worker applies. Clients 470 and 471 share WABA w470; 470 also sends from number p470001.
 */
const C = 470;
const SHARING = 471;
const WABA = 'w470';
const DID = '5214700001';
const NUMBER_ID = 'p470001';
const run = Date.now() % 1_000_000;
const id = (n: number) => String(470_000_000 + run * 10 + n); // template ids of this run (numeric, as Meta's)
const REVIEWED = id(1);
const REPEATED = id(2);
const CATEGORY = id(3);
const QUALITY = id(4);
const SIGNED_ONLY = id(5);
const r = (n: number) => hexId(C, n);

const templates = [
  template(REVIEWED, `reviewed_${run}`, { status: 'PENDING' }),
  template(REPEATED, `repeated_${run}`, { status: 'PENDING' }),
  template(CATEGORY, `category_${run}`),
  template(QUALITY, `quality_${run}`),
  template(SIGNED_ONLY, `signed_${run}`),
  template(id(6), `hello_${run}`),
];

beforeAll(async () => {
  await seedDirectory({
    clients: [
      { client_id: C, client_name: 'Notified' },
      { client_id: SHARING, client_name: 'Sharing' },
    ],
    wabas: [waba(WABA, templates)],
    channels: [
      { wa_id: DID, client_id: C, waba_id: WABA, phone_number_id: NUMBER_ID },
      { wa_id: '5214710001', client_id: SHARING, waba_id: WABA },
    ],
    campaigns: [{ campaign_id: 4701, campaign_name: 'main', client_id: C }],
    contact_channels: [
      { channel_id: 4711, name: 'A', did: DID, waba_id: WABA, client_id: C },
      { channel_id: 4712, name: 'B', did: DID, waba_id: WABA, client_id: C },
    ],
    template_records: [
      { id: r(1), client_id: C, waba_id: WABA, template_id: REVIEWED, channel_id: 4711, campaign_id: 4701 },
      { id: r(2), client_id: C, waba_id: WABA, template_id: REVIEWED, channel_id: 4712, campaign_id: 4701 },
      { id: r(3), client_id: SHARING, waba_id: WABA, template_id: REVIEWED },
      { id: r(4), client_id: C, waba_id: WABA, template_id: REPEATED },
      { id: r(5), client_id: C, waba_id: WABA, template_id: CATEGORY },
      { id: r(6), client_id: C, waba_id: WABA, template_id: QUALITY },
      { id: r(7), client_id: C, waba_id: WABA, template_id: SIGNED_ONLY },
    ],
  });
  await emulator('POST', 'wabas', { id: WABA, templates, phone_numbers: [{ id: NUMBER_ID }] });
}, 60_000);

const tok = (clientId = C) => token({ clientId, campaigns: [4701] });
const entry = async (name: string, clientId = C) =>
  (await call('GET', `/v1/templates?client_id=${clientId}&name=${name}`, { token: await tok(clientId) })).body.data[0];

/** A notification as Meta sends it: the envelope around one change, signed unless told otherwise. */
function notification(field: string, value: Record<string, unknown>, options: { time?: number; wabaId?: string } = {}) {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: options.wabaId ?? WABA, time: options.time ?? Math.floor(Date.now() / 1000), changes: [{ field, value }] }],
  });
}
const statusUpdate = (templateId: string, event: string, reason = 'NONE') => ({
  event,
  message_template_id: Number(templateId),
  message_template_name: 'x',
  message_template_language: 'en_US',
  reason,
});
const post = (raw: string, signature: string | null = metaSignature(raw, LOCAL_META_APP_SECRET)) =>
  call('POST', '/v1/meta/webhooks', {
    rawBody: raw,
    headers: { 'content-type': 'application/json', ...(signature !== null && { 'x-hub-signature-256': signature }) },
  });

/** Events routed so far about one template, by the client they are for. */
async function statusEvents(templateId: string) {
  const { routed } = (await (await fetch(`${apiUrl()}/_local/events`)).json()) as { routed: { event: any }[] };
  const events = routed
    .map((r) => r.event)
    .filter((e) => e['detail-type'] === 'template.status_changed' && e.detail.data.meta_template.id === templateId);
  // A relay running at the same moment may publish an event again with the same id: count ids.
  return [...new Map(events.map((e) => [e.detail.id, e.detail])).values()];
}

const settle = () => new Promise((r) => setTimeout(r, 700));

describe('GET /v1/meta/webhooks: the verification handshake (decisions §13)', () => {
  it('answers the challenge as text/plain only for subscribe with the configured verify token', async () => {
    // Act
    const ok = await call(
      'GET',
      `/v1/meta/webhooks?hub.mode=subscribe&hub.verify_token=${LOCAL_META_VERIFY_TOKEN}&hub.challenge=1158201444`,
    );
    const wrongToken = await call('GET', '/v1/meta/webhooks?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1');
    const wrongMode = await call(
      'GET',
      `/v1/meta/webhooks?hub.mode=unsubscribe&hub.verify_token=${LOCAL_META_VERIFY_TOKEN}&hub.challenge=1`,
    );
    const bare = await call('GET', '/v1/meta/webhooks');
    // Assess
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(ok.body).toBe(1158201444); // the text `1158201444`, parsed by the helper
    expectErrorShape(wrongToken, 403, 'forbidden');
    expectErrorShape(wrongMode, 403, 'forbidden');
    expectErrorShape(bare, 403, 'forbidden');
  });
});

describe('POST /v1/meta/webhooks: template notifications (decisions §13)', () => {
  it('shows a template rejected at the emulator as REJECTED with its reason, without a sync, with one event per client', async () => {
    // Act: the emulator's review result, notified as Meta does
    await emulator('POST', `templates/${REVIEWED}/status`, { status: 'REJECTED', reason: 'INVALID_FORMAT' });
    const seen = await until(
      () => entry(`reviewed_${run}`),
      (e) => e?.meta_template.status === 'REJECTED',
    );
    await until(
      () => statusEvents(REVIEWED),
      (e) => e.length >= 2,
    );
    await settle();
    // Assess
    expect(seen.meta_template).toMatchObject({ status: 'REJECTED', rejected_reason: 'INVALID_FORMAT' });
    // What the service adds to Meta's delivery is the notifications worker's batch window, at most a second (a
    // bound on time here would measure the shared machine, not the service).
    expect(ApplyMetaNotifications.trigger.batchWindowSeconds).toBeLessThanOrEqual(1);
    expect((await entry(`reviewed_${run}`, SHARING)).meta_template.status).toBe('REJECTED');
    const records = await call('GET', `/v1/templates/${r(2)}/channel-campaigns-grouped`, { token: await tok() });
    expect(records.status).toBe(200);
    const final = await statusEvents(REVIEWED);
    expect(final.map((e) => e.client_id).sort()).toEqual([C, SHARING]);
    expect(final.every((e) => e.data.meta_template.status === 'REJECTED')).toBe(true);
    const notices = (await emulator('GET', 'notifications')).notifications as { field: string; status: number }[];
    expect(notices.some((n) => n.field === 'message_template_status_update' && n.status === 200)).toBe(true);
  });

  it('changes nothing for an unsigned, wrongly signed or altered notification (401 each)', async () => {
    // Prepare
    const raw = notification('message_template_status_update', statusUpdate(SIGNED_ONLY, 'PAUSED'));
    const altered = raw.replace('PAUSED', 'DISABLED');
    // Act
    const unsigned = await post(raw, null);
    const wrong = await post(raw, metaSignature(raw, 'not-the-app-secret'));
    const garbage = await post(raw, 'sha256=zz');
    const replayedWithChangedBody = await post(altered, metaSignature(raw, LOCAL_META_APP_SECRET));
    await settle();
    // Assess
    for (const response of [unsigned, wrong, garbage, replayedWithChangedBody]) expectErrorShape(response, 401, 'unauthorized');
    expect((await entry(`signed_${run}`)).meta_template.status).toBe('APPROVED');
    expect(await statusEvents(SIGNED_ONLY)).toEqual([]);
  });

  it('applies a repeated notification once, and drops one older than what the records took', async () => {
    // Prepare
    const now = Math.floor(Date.now() / 1000);
    const approved = notification('message_template_status_update', statusUpdate(REPEATED, 'APPROVED'), { time: now });
    const olderPending = notification('message_template_status_update', statusUpdate(REPEATED, 'PENDING'), { time: now - 60 });
    // Act
    const first = await post(approved);
    const again = await post(approved);
    await until(
      () => entry(`repeated_${run}`),
      (e) => e.meta_template.status === 'APPROVED',
    );
    const late = await post(olderPending);
    await settle();
    // Assess
    expect([first.status, again.status, late.status]).toEqual([200, 200, 200]);
    expect(first.body).toEqual({ success: true, changes: 1 });
    expect((await entry(`repeated_${run}`)).meta_template.status).toBe('APPROVED');
    expect(await statusEvents(REPEATED)).toHaveLength(1);
  });

  it('takes category and quality changes, with no status event', async () => {
    // Act
    await post(
      notification('template_category_update', {
        message_template_id: Number(CATEGORY),
        message_template_name: 'x',
        message_template_language: 'en_US',
        previous_category: 'UTILITY',
        new_category: 'MARKETING',
      }),
    );
    await post(
      notification('message_template_quality_update', {
        message_template_id: Number(QUALITY),
        message_template_name: 'x',
        message_template_language: 'en_US',
        previous_quality_score: 'GREEN',
        new_quality_score: 'RED',
      }),
    );
    const category = await until(
      () => entry(`category_${run}`),
      (e) => e.meta_template.category === 'MARKETING',
    );
    const qualityToken = await tok();
    const quality = await until(
      () => call('GET', `/v1/templates?client_id=${C}&quality_scores=RED`, { token: qualityToken }),
      (res) => res.body.total === 1,
    );
    // Assess
    expect(category.meta_template).toMatchObject({ category: 'MARKETING', previous_category: 'UTILITY' });
    expect(quality.body.data.map((e: any) => e.meta_template.id)).toEqual([QUALITY]);
    expect(await statusEvents(CATEGORY)).toEqual([]);
  });

  it('answers 200 and changes nothing for unknown WABAs, templates and fields; 400 for a body that is not a notification', async () => {
    // Act
    const unknownWaba = await post(
      notification('message_template_status_update', statusUpdate(SIGNED_ONLY, 'DISABLED'), { wabaId: 'w-unknown' }),
    );
    const unknownTemplate = await post(notification('message_template_status_update', statusUpdate('999999999999', 'DISABLED')));
    const unknownField = await post(notification('account_review_update', { decision: 'APPROVED' }));
    const notJson = await post('{"object":');
    const notMeta = await post(JSON.stringify({ object: 'page', entry: [] }));
    await settle();
    // Assess
    expect(unknownWaba.status).toBe(200);
    expect(unknownTemplate.status).toBe(200);
    expect(unknownField.body).toEqual({ success: true, changes: 0 });
    expectErrorShape(notJson, 400);
    expectErrorShape(notMeta, 400);
    expect((await entry(`signed_${run}`)).meta_template.status).toBe('APPROVED');
  });

  it('answers every signed body of any shape with 200 or a 400 in the contract’s shape, never a 5xx', async () => {
    // Prepare: arbitrary JSON, and notifications whose changes carry arbitrary values
    const change = fc.record({
      field: fc.constantFrom(
        'messages',
        'message_template_status_update',
        'template_category_update',
        'message_template_quality_update',
        'x',
      ),
      value: fc.jsonValue(),
    });
    const body = fc.oneof(
      fc.json(),
      fc
        .record({
          object: fc.constant('whatsapp_business_account'),
          entry: fc.array(
            fc.record({ id: fc.constantFrom(WABA, 'w-x'), time: fc.integer(), changes: fc.array(change, { maxLength: 3 }) }),
            { maxLength: 2 },
          ),
        })
        .map((b) => JSON.stringify(b)),
    );
    // Act and assess
    await fc.assert(
      fc.asyncProperty(body, async (raw) => {
        const response = await post(raw);
        if (response.status !== 200) expectErrorShape(response, 400);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a body over 1 MiB with 413 before checking anything else', async () => {
    const raw = notification('messages', { statuses: [], padding: 'x'.repeat(1024 * 1024) });
    expectErrorShape(await post(raw), 413, 'payload_too_large');
  });
});

describe('POST /v1/meta/webhooks: message statuses counted on their send (decisions §13)', () => {
  it('follows the emulator’s delivered, read and failed notifications, each counted once', async () => {
    // Prepare: a send of three messages, dispatched
    const numbers = [1, 2, 3].map((i) => `52147${String(run).padStart(6, '0')}${i}`);
    const response = await call('POST', `/v1/template/messages/${DID}`, {
      token: await tok(),
      body: {
        did: DID,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: `hello_${run}`, language: 'en_US' },
        recipients: numbers.map((to) => ({ to, params: { body: ['Ana'] } })),
      },
    });
    expect(response.status).toBe(200);
    const sendId = response.body.send_id;
    const sendStatus = async () => (await call('GET', `/v1/sends/${sendId}`, { token: await tok() })).body;
    await until(sendStatus, (s) => s.pending === 0, 20_000);
    const { sent } = await emulator('GET', `sent?phone_number_id=${NUMBER_ID}&template=hello_${run}`);
    const byNumber = new Map((sent as { id: string; message: { to: string } }[]).map((m) => [m.message.to, m.id]));
    const [a, b, c] = numbers.map((n) => byNumber.get(n)!);
    // Act
    await emulator('POST', `messages/${encodeURIComponent(a)}/status`, { status: 'delivered' });
    await emulator('POST', `messages/${encodeURIComponent(a)}/status`, { status: 'delivered' });
    await emulator('POST', `messages/${encodeURIComponent(b)}/status`, { status: 'read' });
    await emulator('POST', `messages/${encodeURIComponent(a)}/status`, { status: 'read' });
    await emulator('POST', `messages/${encodeURIComponent(c)}/status`, {
      status: 'failed',
      error: { code: 131047, title: 'Re-engagement message' },
    });
    const after = await until(sendStatus, (s) => s.read === 2 && s.failed === 1);
    await settle();
    // Assess
    expect(await sendStatus()).toMatchObject({
      status: 'completed',
      total: 3,
      sent: 2,
      delivered: 2,
      read: 2,
      failed: 1,
      pending: 0,
      errors: [{ code: '131047', title: 'Re-engagement message', count: 1 }],
    });
    expect(after.delivered).toBe(2);
    const [message] = (sent as { message: Record<string, unknown> }[]).filter((m) => m.message.to === numbers[0]);
    // The reference names the send, the block that settles the message and its position (delivery.ts).
    expect(message.message.biz_opaque_callback_data).toBe(`tms2:${sendId}:0:0`);
  });
});
