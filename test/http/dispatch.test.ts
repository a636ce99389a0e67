import { readFileSync } from 'node:fs';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, emulator, expectErrorShape, queuedBy, token } from '../support/api.ts';
import { seedDirectory, useStackTable, waba } from '../support/seed.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * The dispatcher on the running local stack (decisions §12): sends go through the real queue, the dispatcher
 * worker, DynamoDB Local and our Graph emulator, whose messages endpoint checks every message against the
 * template as Graph does. The file has its own client (440), WABA and sending number, with copies of the demo
 * fixture's templates, so its pacing and its sends are its own; each test's recipients are numbers of its own.
 */
const CLIENT = 440;
const DID = '5215544001';
const NUMBER_ID = 'p440001';
const WABA = 'w440';
const OTHER_CLIENT = 441;
const run = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
const numberOf = (test: number, i: number) => `52${run}${String(test).padStart(2, '0')}${String(i).padStart(3, '0')}`;
const messagesPath = `/${NUMBER_ID}/messages`;

const demo = JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8'));
const templates = demo.wabas
  .find((w: { waba_id: string }) => w.waba_id === '100200300')
  .templates.map((t: { id: string }) => ({ ...t, id: `440${t.id}` }));
// An AUTHENTICATION template given in its creation form (no body text, an OTP button), as a fixture may hold it.
templates.push({
  id: '4409999',
  name: 'login_code_created',
  language: 'en_US',
  status: 'APPROVED',
  category: 'AUTHENTICATION',
  components: [
    { type: 'BODY', add_security_recommendation: true },
    { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
  ],
});
const tokens = {
  acme: () => token({ clientId: CLIENT, campaigns: [4401] }),
  beta: () => token({ clientId: OTHER_CLIENT, campaigns: [4411] }),
  bsp: () => token({ clientId: OTHER_CLIENT, bsp: true }),
};

beforeAll(async () => {
  await seedDirectory({
    clients: [
      { client_id: CLIENT, client_name: 'Dispatch' },
      { client_id: OTHER_CLIENT, client_name: 'Other' },
    ],
    wabas: [waba(WABA, templates)],
    channels: [{ wa_id: DID, client_id: CLIENT, waba_id: WABA, phone_number_id: NUMBER_ID }],
    campaigns: [
      { campaign_id: 4401, campaign_name: 'main', client_id: CLIENT },
      { campaign_id: 4411, campaign_name: 'other', client_id: OTHER_CLIENT },
    ],
  });
  await emulator('POST', 'wabas', { id: WABA, templates, phone_numbers: [{ id: NUMBER_ID }] });
}, 60_000);

afterAll(() => emulator('DELETE', `faults?path=${encodeURIComponent(messagesPath)}`));

const send = async (body: Record<string, unknown>, options: { query?: string; headers?: Record<string, string> } = {}) =>
  call('POST', `/v1/template/messages/${DID}${options.query ?? ''}`, {
    token: await tokens.acme(),
    headers: options.headers,
    body: { did: DID, type: 'template', channel: 'MSGCHAN', ...body },
  });

/** The send's status once the dispatcher settled every recipient. */
async function settled(sendId: string) {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const status = await call('GET', `/v1/sends/${sendId}`, { token: await tokens.acme() });
    if (status.status === 200 && status.body.pending === 0) return status.body;
    if (Date.now() > deadline) throw new Error(`send ${sendId} not settled: ${JSON.stringify(status.body)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The messages the emulator accepted for these recipients. */
async function acceptedFor(numbers: string[]) {
  const wanted = new Set(numbers);
  const { sent } = await emulator('GET', 'sent');
  return (sent as { message: { to: string; template: { components?: any[] } } }[]).filter((m) =>
    wanted.has(m.message.to.replace(/^\+/, '')),
  );
}

/** Calls of the messages endpoint for these recipients (accepted or not). */
async function callsFor(numbers: string[]) {
  const wanted = new Set(numbers);
  const { calls } = await emulator('GET', 'calls');
  return (calls as { path: string; body?: { to?: string } }[]).filter(
    (c) => c.path.endsWith(messagesPath) && wanted.has(String(c.body?.to)),
  );
}

const trackOrder = (to: string) => ({ to, params: { header: [`H-${to}`], body: ['Ana', `A-${to}`], buttons: [`P-${to}`, 'SAVE10'] } });

describe('the dispatcher (decisions §12)', () => {
  it('sends one message per recipient, a repeated recipient once, each accepted by the emulator’s checks', async () => {
    // Prepare: four recipients, the first one twice
    const [a, b, c] = [numberOf(1, 1), numberOf(1, 2), numberOf(1, 3)];
    // Act
    const response = await send({
      template: { name: 'track_order', language: 'en_US' },
      recipients: [trackOrder(a), trackOrder(b), trackOrder(a), trackOrder(c)],
    });
    // Assess
    expect(response.status).toBe(200);
    const status = await settled(response.body.send_id);
    expect(status).toMatchObject({ status: 'completed', total: 4, sent: 3, duplicates_removed: 1, failed: 0, expired: 0, pending: 0 });
    const accepted = await acceptedFor([a, b, c]);
    expect(accepted.map((m) => m.message.to).sort()).toEqual([a, b, c].sort());
    expect(accepted.find((m) => m.message.to === a)?.message.template.components).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: `H-${a}` }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ana' },
          { type: 'text', text: `A-${a}` },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: `P-${a}` }] },
      { type: 'button', sub_type: 'copy_code', index: '2', parameters: [{ type: 'coupon_code', coupon_code: 'SAVE10' }] },
    ]);
  });

  it('sends the repeat too when the send allows duplicates', async () => {
    const [a, b] = [numberOf(2, 1), numberOf(2, 2)];
    const response = await send({
      template: { name: 'track_order', language: 'en_US' },
      recipients: [trackOrder(a), trackOrder(b), trackOrder(a)],
      allow_duplicates: true,
    });
    const status = await settled(response.body.send_id);
    expect(status).toMatchObject({ sent: 3, duplicates_removed: 0 });
    expect(await acceptedFor([a, b])).toHaveLength(3);
  });

  it('sends an AUTHENTICATION template with the code in the body and in the button', async () => {
    const to = numberOf(3, 1);
    const response = await send({
      template: { name: 'login_code', language: 'en_US' },
      recipients: [{ to, params: { body: ['482913'], buttons: ['482913'] } }],
    });
    expect(response.status).toBe(200);
    expect(await settled(response.body.send_id)).toMatchObject({ sent: 1, failed: 0 });
    const [message] = await acceptedFor([to]);
    expect(message.message.template.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: '482913' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] },
    ]);
  });

  it('sends an AUTHENTICATION template the fixture gave in its creation form, with the code in the body and the button', async () => {
    // Prepare
    const to = numberOf(3, 2);
    // Act
    const response = await send({
      template: { name: 'login_code_created', language: 'en_US' },
      recipients: [{ to, params: { body: ['551177'], buttons: ['551177'] } }],
    });
    // Assess: the emulator keeps it as Graph does, so the code message is accepted
    expect(response.status).toBe(200);
    expect(await settled(response.body.send_id)).toMatchObject({ sent: 1, failed: 0 });
    const [message] = await acceptedFor([to]);
    expect(message.message.template.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: '551177' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '551177' }] },
    ]);
  });

  it('sends media, location and carousel templates in shapes the emulator accepts', async () => {
    const [image, place, cards] = [numberOf(4, 1), numberOf(4, 2), numberOf(4, 3)];
    const sends = await Promise.all([
      send({
        template: { name: 'promo_image', language: 'en_US' },
        recipients: [{ to: image, params: { body: ['Ana'] } }],
        component: { header: { type: 'image_url', value: 'https://cdn.example.com/a.png' } },
      }),
      send({
        template: { name: 'store_location', language: 'en_US' },
        recipients: [{ to: place, params: { body: ['Main St'] } }],
        component: {
          header: { type: 'location', location: { latitude: '19.43', longitude: '-99.13', name: 'Store', address: 'Main St 1' } },
        },
      }),
      send({
        template: { name: 'spring_cards', language: 'en_US' },
        recipients: [
          {
            to: cards,
            params: {
              cards: [
                { body: ['1'], buttons: ['a'] },
                { body: ['2'], buttons: ['b'] },
              ],
            },
          },
        ],
      }),
    ]);
    for (const response of sends) expect(await settled(response.body.send_id)).toMatchObject({ sent: 1, failed: 0, errors: [] });
    const accepted = await acceptedFor([image, place, cards]);
    const header = (to: string) => accepted.find((m) => m.message.to === to)?.message.template.components?.[0];
    expect(header(image)).toEqual({ type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/a.png' } }] });
    expect(header(place)?.parameters[0].type).toBe('location');
    const carousel = accepted.find((m) => m.message.to === cards)?.message.template.components?.find((c) => c.type === 'carousel');
    expect(carousel.cards).toHaveLength(2);
  });

  it('retries a burst of 429s with backoff and sends each recipient once', async () => {
    // Prepare: the first six messages to this test's numbers are refused for throughput
    const numbers = [numberOf(5, 1), numberOf(5, 2), numberOf(5, 3)];
    await emulator('POST', 'faults', { path: messagesPath, body: `"to":"52${run}05`, status: 429, code: 130429, times: 6 });
    // Act
    const response = await send({ template: { name: 'track_order', language: 'en_US' }, recipients: numbers.map(trackOrder) });
    // Assess: every one sent once, after more attempts than messages
    expect(await settled(response.body.send_id)).toMatchObject({ sent: 3, failed: 0 });
    expect(await acceptedFor(numbers)).toHaveLength(3);
    expect((await callsFor(numbers)).length).toBe(9);
  });

  it('retries what Meta’s throughput limit refuses (130429 beyond the number’s level in a rolling second) and sends each recipient once', async () => {
    // Prepare: the emulator holds this number to 20 a second, no burst, while the dispatcher goes at 72: far
    // enough below the dispatcher's pace that a loaded machine still launches faster than the limit
    const numbers = Array.from({ length: 60 }, (_, i) => numberOf(15, i));
    await emulator('POST', `numbers/${NUMBER_ID}/limit`, { per_second: 20, burst: 0 });
    const refusedBefore = (await emulator('GET', `throughput?phone_number_id=${NUMBER_ID}`)).refused[NUMBER_ID];
    try {
      // Act
      const response = await send({ template: { name: 'track_order', language: 'en_US' }, recipients: numbers.map(trackOrder) });
      // Assess: every one sent once, the refusals retried and counted
      expect(await settled(response.body.send_id)).toMatchObject({ status: 'completed', sent: 60, failed: 0 });
      const accepted = await acceptedFor(numbers);
      expect(new Set(accepted.map((m) => m.message.to)).size).toBe(60);
      expect(accepted).toHaveLength(60);
      const refused = (await emulator('GET', `throughput?phone_number_id=${NUMBER_ID}`)).refused[NUMBER_ID] - refusedBefore;
      expect(refused).toBeGreaterThan(0);
      expect((await callsFor(numbers)).length).toBe(60 + refused);
    } finally {
      await emulator('DELETE', `numbers/${NUMBER_ID}/limit`);
    }
  });

  it('records a permanent refusal per recipient without retrying it', async () => {
    const [ok, gone] = [numberOf(6, 1), numberOf(6, 2)];
    await emulator('POST', 'faults', { path: messagesPath, body: `"to":"${gone}"`, status: 400, code: 131026 });
    const response = await send({ template: { name: 'track_order', language: 'en_US' }, recipients: [trackOrder(ok), trackOrder(gone)] });
    const status = await settled(response.body.send_id);
    expect(status).toMatchObject({ sent: 1, failed: 1, errors: [{ code: '131026', title: 'Injected fault', count: 1 }] });
    expect(await callsFor([gone])).toHaveLength(1);
  });

  it('stops a send whose template the upstream reports disabled, with the reason', async () => {
    // Prepare: every message of this test answers 132016 (the template was disabled after the send was accepted;
    // a pause, 132015, pauses the send instead: test/http/pauses.test.ts)
    const numbers = Array.from({ length: 40 }, (_, i) => numberOf(7, i));
    await emulator('POST', 'faults', { path: messagesPath, body: `"to":"52${run}07`, status: 400, code: 132016 });
    // Act
    const response = await send({ template: { name: 'track_order', language: 'en_US' }, recipients: numbers.map(trackOrder) });
    // Assess: all failed with the pause, and most were never attempted
    const status = await settled(response.body.send_id);
    expect(status).toMatchObject({ sent: 0, failed: 40, stopped: { code: '132016' } });
    expect(status.errors).toEqual([{ code: '132016', title: 'Injected fault', count: 40 }]);
    expect((await callsFor(numbers)).length).toBeLessThan(40);
  });

  it('sends nothing after message_send_ttl_seconds from acceptance, counted expired', async () => {
    // Prepare: the recipient's first four attempts each hang 0.7 s and are refused for throughput, which
    // outlasts its two-second TTL
    const late = numberOf(8, 1);
    await emulator('POST', 'faults', { path: messagesPath, body: `"to":"${late}"`, status: 429, code: 130429, delayMs: 700, times: 4 });
    // Act
    const response = await send({
      template: { name: 'track_order', language: 'en_US' },
      recipients: [trackOrder(late)],
      message_send_ttl_seconds: 2,
    });
    // Assess: expired, never accepted, whenever its dispatch began
    expect(await settled(response.body.send_id)).toMatchObject({ sent: 0, expired: 1, failed: 0 });
    expect(await acceptedFor([late])).toHaveLength(0);
  });

  it('sends nothing twice when a job is delivered twice, whether queued again or run twice at once', async () => {
    // Prepare: a send, and its job
    const numbers = [numberOf(9, 1), numberOf(9, 2), numberOf(9, 3)];
    const response = await send({ template: { name: 'track_order', language: 'en_US' }, recipients: numbers.map(trackOrder) });
    const [job] = await queuedBy(response);
    // Act: the same job queued again at once, then handed twice at once to the dispatcher function itself
    const sqs = new SQSClient({
      endpoint: inject('sqsEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    await sqs.send(new SendMessageCommand({ QueueUrl: inject('dispatchQueueUrl'), MessageBody: JSON.stringify(job) }));
    const first = await settled(response.body.send_id);
    useStackTable();
    process.env.GRAPH_API_URL = inject('graphUrl');
    process.env.GRAPH_API_TOKEN = 'local-graph-access-token';
    process.env.DISPATCH_QUEUE_URL = inject('dispatchQueueUrl');
    const { handler } = await import('../../functions/workers/dispatch-messages.ts');
    const event = (id: string): SQSEvent => ({
      Records: [
        {
          messageId: id,
          receiptHandle: id,
          body: JSON.stringify(job),
          attributes: {} as never,
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:template-dispatch',
          awsRegion: 'us-east-1',
        },
      ],
    });
    const context = (id: string) => ({ awsRequestId: id, getRemainingTimeInMillis: () => 60_000 }) as unknown as Context;
    const answers = await Promise.all([handler(event('again-1'), context('again-1')), handler(event('again-2'), context('again-2'))]);
    // Assess: three messages in all, the counts unchanged, and both deliveries finished
    expect(answers).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await acceptedFor(numbers)).toHaveLength(3);
    expect(first).toMatchObject({ sent: 3, pending: 0 });
    expect((await call('GET', `/v1/sends/${response.body.send_id}`, { token: await tokens.acme() })).body).toMatchObject({
      sent: 3,
      pending: 0,
      duplicates_removed: 0,
    });
  });
});

describe('a send recorded before the dispatcher existed (kept data)', () => {
  it('gets its counts at its first job and is dispatched', async () => {
    // Prepare: a queued send as the previous version wrote it (no counts), and its job
    useStackTable();
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const sendId = `legacy-${run}`;
    const to = numberOf(16, 1);
    await table.client.send(
      new PutCommand({
        TableName: table.name,
        Item: {
          pk: `SEND#${sendId}`,
          sk: 'SEND',
          entity: 'send',
          send_id: sendId,
          client_id: CLIENT,
          did: DID,
          template: { name: 'track_order', language: 'en_US' },
          status: 'queued',
          created_at: new Date().toISOString(),
          total: 1,
          jobs: 1,
        },
      }),
    );
    const track = templates.find((t: { name: string }) => t.name === 'track_order');
    const job = {
      send_id: sendId,
      client_id: CLIENT,
      did: DID,
      waba_id: WABA,
      phone_number_id: NUMBER_ID,
      channel: 'MSGCHAN',
      template: { name: track.name, language: track.language, id: track.id, category: track.category, components: track.components },
      total_contacts: 1,
      job: 1,
      jobs: 1,
      first_index: 0,
      recipients: [trackOrder(to)],
    };
    // Act
    const sqs = new SQSClient({
      endpoint: inject('sqsEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    await sqs.send(new SendMessageCommand({ QueueUrl: inject('dispatchQueueUrl'), MessageBody: JSON.stringify(job) }));
    // Assess
    const deadline = Date.now() + 20_000;
    while ((await acceptedFor([to])).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await acceptedFor([to])).toHaveLength(1);
    const { DynamoSendRecords } = await import('#lib/adapters/dynamo/sends/send-records.ts');
    let stored = await new DynamoSendRecords(table).get(sendId);
    while (stored?.counts?.sent !== 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      stored = await new DynamoSendRecords(table).get(sendId);
    }
    expect(stored?.counts).toMatchObject({ sent: 1, failed: 0 });
  });
});

describe('send status: GET /v1/sends/{send_id} and GET /v1/sends (decisions §12)', () => {
  it('reports a send’s counts to its client and to BSP_CN, and hides it from other clients', async () => {
    const response = await send({
      template: { name: 'track_order', language: 'en_US' },
      recipients: [trackOrder(numberOf(10, 1))],
      campaignId: 4401,
    });
    const sendId = response.body.send_id;
    const status = await settled(sendId);
    expect(status).toMatchObject({
      send_id: sendId,
      client_id: CLIENT,
      did: DID,
      template: { name: 'track_order', language: 'en_US' },
      campaignId: 4401,
      status: 'completed',
      total: 1,
      duplicates_removed: 0,
      expired: 0,
      sent: 1,
      delivered: 0,
      read: 0,
      failed: 0,
      pending: 0,
      errors: [],
    });
    expect(Date.parse(status.created_at)).toBeGreaterThan(0);
    expectErrorShape(await call('GET', `/v1/sends/${sendId}`, { token: await tokens.beta() }), 404, 'not_found');
    expect((await call('GET', `/v1/sends/${sendId}`, { token: await tokens.bsp() })).status).toBe(200);
    expectErrorShape(await call('GET', '/v1/sends/no-such-send', { token: await tokens.acme() }), 404);
    expectErrorShape(await call('GET', '/v1/sends/bad%20id', { token: await tokens.acme() }), 400);
  });

  it('lists the acting client’s sends newest first, a page at a time', async () => {
    const first = await send({
      template: { name: 'order_update', language: 'es' },
      recipients: [{ to: numberOf(11, 1), params: { body: ['1'] } }],
    });
    const second = await send({
      template: { name: 'order_update', language: 'es' },
      recipients: [{ to: numberOf(11, 2), params: { body: ['2'] } }],
    });
    const page = await call('GET', '/v1/sends?size=2', { token: await tokens.acme() });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ page: 1, page_size: 2 });
    expect(page.body.total).toBeGreaterThanOrEqual(2);
    const ids = page.body.data.map((s: { send_id: string }) => s.send_id);
    const all = await call('GET', '/v1/sends?size=100', { token: await tokens.acme() });
    const order = all.body.data.map((s: { send_id: string }) => s.send_id);
    expect(order.indexOf(second.body.send_id)).toBeLessThan(order.indexOf(first.body.send_id));
    expect(ids).toHaveLength(2);
    expectErrorShape(await call('GET', `/v1/sends?client_id=${OTHER_CLIENT}`, { token: await tokens.acme() }), 403);
    expectErrorShape(await call('GET', '/v1/sends?size=abc', { token: await tokens.acme() }), 400);
    expect((await call('GET', `/v1/sends?client_id=${OTHER_CLIENT}`, { token: await tokens.bsp() })).status).toBe(200);
  });
});

describe('dry runs: ?dry_run=true (decisions §12)', () => {
  it('names exactly the 7 bad recipients of 10,000 and queues nothing', async () => {
    // Prepare: 10,000 recipients, 7 of them bad in the schema or against the template
    const recipients: Record<string, unknown>[] = Array.from({ length: 10_000 }, (_, i) => trackOrder(numberOf(12, i % 1000)));
    const bad = [3, 777, 1234, 5000, 6001, 8888, 9999];
    recipients[3] = { to: 'not-a-number' };
    recipients[777] = { ...trackOrder('5215550777'), params: { header: ['h'], body: ['only one'], buttons: ['p', 'c'] } };
    recipients[1234] = { to: '5215551234', params: { body: ['a', 'b'] } };
    recipients[5000] = { to: '5215555000', params: { ...trackOrder('5215555000').params, extra: 1 } };
    recipients[6001] = { ...trackOrder('5215556001'), params: { header: ['h'], body: ['a', 'b'], buttons: ['p'] } };
    recipients[8888] = 42 as never;
    recipients[9999] = { ...trackOrder('5215559999'), params: { header: [], body: ['a', 'b'], buttons: ['p', 'c'] } };
    // Act
    const response = await send({ template: { name: 'track_order', language: 'en_US' }, recipients }, { query: '?dry_run=true' });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: false, dry_run: true, total: 10_000, valid: 9_993 });
    expect([...new Set(response.body.invalid.map((p: { index: number }) => p.index))]).toEqual(bad);
    for (const problem of response.body.invalid) expect(problem.path.startsWith(`recipients[${problem.index}]`)).toBe(true);
    expect(await queuedBy(response)).toEqual([]);
  });

  it('answers success with nothing invalid, and tenancy and template errors as a send does', async () => {
    const ok = await send(
      { template: { name: 'order_update', language: 'es' }, recipients: [{ to: '525555550100', params: { body: ['x'] } }] },
      { query: '?dry_run=true' },
    );
    expect(ok.body).toEqual({
      success: true,
      dry_run: true,
      total: 1,
      valid: 1,
      invalid: [],
      estimate: expect.objectContaining({ currency: 'USD' }),
    });
    const recipients = [{ to: '5215550100', params: { body: ['x'] } }];
    expectErrorShape(await send({ template: { name: 'order_update', language: 'fr' }, recipients }, { query: '?dry_run=true' }), 404);
    expectErrorShape(await send({ template: { name: 'summer_promo', language: 'en_US' }, recipients }, { query: '?dry_run=true' }), 422);
    expectErrorShape(
      await send({ template: { name: 'order_update', language: 'es' }, recipients, client_id: 8 }, { query: '?dry_run=true' }),
      403,
    );
    expectErrorShape(
      await send({ template: { name: 'order_update', language: 'es' }, recipients, type: 'text' }, { query: '?dry_run=true' }),
      400,
    );
  });
});

describe('Idempotency-Key on sends (decisions §12)', () => {
  it('dispatches a send retried three times with the same key once, with one send_id', async () => {
    // Prepare
    const key = `retry-${run}`;
    const body = { template: { name: 'track_order', language: 'en_US' }, recipients: [trackOrder(numberOf(13, 1))] };
    // Act: the first request and three retries
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await send(body, { headers: { 'idempotency-key': key } }));
    // Assess
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.send_id)).size).toBe(1);
    expect((await queuedBy(answers[0])).length).toBe(1);
    for (const retry of answers.slice(1)) expect(await queuedBy(retry)).toEqual([]);
    expect(await settled(answers[0].body.send_id)).toMatchObject({ sent: 1 });
    expect(await acceptedFor([numberOf(13, 1)])).toHaveLength(1);
  });

  it('answers 409 for the key with another body, and a bad key is 400', async () => {
    const key = `reuse-${run}`;
    const body = { template: { name: 'order_update', language: 'es' }, recipients: [{ to: numberOf(14, 1), params: { body: ['1'] } }] };
    expect((await send(body, { headers: { 'idempotency-key': key } })).status).toBe(200);
    const other = { ...body, recipients: [{ to: numberOf(14, 2), params: { body: ['2'] } }] };
    expectErrorShape(await send(other, { headers: { 'idempotency-key': key } }), 409, 'idempotency_key_reused');
    expectErrorShape(await send(body, { headers: { 'idempotency-key': 'x'.repeat(256) } }), 400, 'validation_failed');
    expectErrorShape(await send(body, { headers: { 'idempotency-key': 'tab\there' } }), 400, 'validation_failed');
  });

  // 409 while the first request with the key still runs: test/measured/idempotency-in-progress.test.ts, on a stack of
  // its own whose Graph timeout lets the first request hold its key long enough (this stack's is 1 s).
});
