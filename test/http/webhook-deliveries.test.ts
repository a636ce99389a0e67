import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetQueueUrlCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dlqName, QUEUES } from '#lib/manifest/queues.ts';
import { call, emulator, expectErrorShape, token } from '../support/api.ts';
import { seedDirectory, waba } from '../support/seed.ts';
import { until as untilWithin } from '../support/until.ts';

/**
 * Webhook delivery end to end (decisions §6, §15) with a real HTTP receiver on 127.0.0.1 (the test stack runs
 * with ALLOW_LOCAL_WEBHOOKS and retries at once): clients 500–504 share WABA w500, each with its own receiver
 * path: `ok` answers 204, `flaky` 500 three times then 204, `down` always 500; 503's configuration is inactive.
 */
const WABA = 'w500';
const [OK, FLAKY, DOWN, INACTIVE, OTHER] = [500, 501, 502, 503, 504];
const did = (client: number) => `52150${client}01`;
const run = Date.now() % 1_000_000;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
const failuresLeft: Record<string, number> = { '/flaky': 3 };
let receiver: Server;
let receiverUrl = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const fail = path === '/down' || (failuresLeft[path] ?? 0) > 0;
      if (failuresLeft[path]) failuresLeft[path]--;
      res.writeHead(fail ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const clients = [OK, FLAKY, DOWN, INACTIVE, OTHER];
  await seedDirectory({
    clients: clients.map((client_id) => ({ client_id, client_name: `Hooks ${client_id}` })),
    wabas: [waba(WABA, [])],
    channels: clients.map((client_id) => ({ wa_id: did(client_id), client_id, waba_id: WABA })),
  });
  await emulator('POST', 'wabas', { id: WABA, templates: [] });
}, 60_000);

afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const tok = (clientId: number) => token({ clientId });
/** Deliveries go through the outbox, EventBridge, the queue and one worker shared with other test files: a generous wait. */
const until = <T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 30_000) => untilWithin(read, done, timeoutMs);
async function configure(clientId: number, path: string, active = true) {
  const response = await call('PUT', '/v1/webhook/config', { token: await tok(clientId), body: { url: `${receiverUrl}${path}`, active } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.signing_secret as string;
}
async function createTemplate(clientId: number, name: string) {
  const response = await call('POST', `/v1/templates/${did(clientId)}`, {
    token: await tok(clientId),
    body: { name: `${name}_${run}`, language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: `Hello from ${name}` }] },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response;
}
const deliveriesOf = async (clientId: number, query = '') =>
  (await call('GET', `/v1/webhook/deliveries?size=100${query}`, { token: await tok(clientId) })).body;

/**
 * One delivery shown, in the page and in its total. They are two reads (the page's keys, then the day counts):
 * an attempt written between them shows in one only, so a test waits for both.
 */
const shown = <L extends { total: number; data: unknown[] }>(log: L) => log.total === 1 && log.data.length === 1;
const at = (path: string, name: string) => received.filter((r) => r.path === path && r.body.includes(`${name}_${run}`));

describe('webhook delivery to a local receiver (decisions §15)', () => {
  it('delivers a created template’s event once, signed so standardwebhooks verifies it, with the request’s correlation id', async () => {
    // Prepare
    const secret = await configure(OK, '/ok');
    // Act
    const created = await createTemplate(OK, 'first');
    const arrived = await until(
      () => at('/ok', 'first'),
      (r) => r.length > 0,
    );
    await new Promise((r) => setTimeout(r, 500));
    // Assess
    expect(at('/ok', 'first')).toHaveLength(1);
    const payload = new Webhook(secret).verify(arrived[0].body, arrived[0].headers as Record<string, string>) as Record<string, any>;
    expect(payload).toMatchObject({ type: 'template.created', client_id: OK, data: { meta_template: { name: `first_${run}` } } });
    expect(Object.keys(payload).sort()).toEqual(['client_id', 'data', 'id', 'occurred_at', 'type']);
    expect(arrived[0].headers['webhook-id']).toBe(payload.id);
    expect(arrived[0].headers['x-correlation-id']).toBe(created.headers.get('x-request-id'));
    const log = await until(
      () => deliveriesOf(OK),
      (l) => l.data.some((d: any) => d.id === payload.id && d.status === 'delivered'),
    );
    expect(log.data.find((d: any) => d.id === payload.id)).toMatchObject({
      event_id: payload.id,
      type: 'template.created',
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
      delivered_at: expect.any(String),
    });
  });

  it('gets the event to a receiver that fails the first 3 attempts on the 4th, with the same webhook-id', async () => {
    // Prepare
    await configure(FLAKY, '/flaky');
    // Act
    await createTemplate(FLAKY, 'flaky');
    const attempts = await until(
      () => at('/flaky', 'flaky'),
      (r) => r.length >= 4,
    );
    // Assess
    expect(attempts).toHaveLength(4);
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    const log = await until(() => deliveriesOf(FLAKY, '&status=delivered'), shown);
    expect(log.data[0]).toMatchObject({ status: 'delivered', attempts: 4, last_status_code: 204 });
    expect(log.data[0].last_error).toBeUndefined();
  });

  it('logs a delivery failed after the last retry, and the event is in the dead-letter queue', async () => {
    // Prepare
    await configure(DOWN, '/down');
    // Act
    await createTemplate(DOWN, 'down');
    const log = await until(() => deliveriesOf(DOWN, '&status=failed'), shown, 60_000);
    // Assess: every receive the queue allows was one attempt
    expect(log.data[0]).toMatchObject({
      status: 'failed',
      attempts: QUEUES.webhookEvents.maxReceiveCount,
      last_status_code: 500,
      last_error: 'webhook answered 500',
    });
    expect(at('/down', 'down')).toHaveLength(QUEUES.webhookEvents.maxReceiveCount);
    const sqs = new SQSClient({
      endpoint: inject('sqsEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const dlq = (await sqs.send(new GetQueueUrlCommand({ QueueName: dlqName(QUEUES.webhookEvents) }))).QueueUrl!;
    const inDlq = await until(
      async () =>
        (await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq, MaxNumberOfMessages: 10, VisibilityTimeout: 0, WaitTimeSeconds: 1 })))
          .Messages ?? [],
      (messages) => messages.some((m) => m.Body?.includes(log.data[0].event_id)),
      10_000,
    );
    expect(inDlq.some((m) => m.Body?.includes(log.data[0].event_id))).toBe(true);
  }, 90_000);

  it('sends nothing to an inactive configuration and logs the delivery skipped', async () => {
    // Prepare
    await configure(INACTIVE, '/inactive', false);
    // Act
    await createTemplate(INACTIVE, 'quiet');
    const log = await until(() => deliveriesOf(INACTIVE, '&status=skipped'), shown);
    // Assess
    expect(log.data[0]).toMatchObject({ status: 'skipped', attempts: 0, type: 'template.created' });
    expect(received.filter((r) => r.path === '/inactive')).toEqual([]);
  });

  it('replays a delivery with the same webhook-id (202), and refuses another client’s delivery (404)', async () => {
    // Prepare: a delivered event of client OK
    await configure(OK, '/ok');
    await createTemplate(OK, 'replayed');
    const first = await until(
      () => at('/ok', 'replayed'),
      (r) => r.length === 1,
    );
    const id = first[0].headers['webhook-id'] as string;
    await until(
      () => deliveriesOf(OK, '&status=delivered'),
      (l) => l.data.some((d: any) => d.id === id),
    );
    // Act
    const replay = await call('POST', `/v1/webhook/deliveries/${id}/replay`, { token: await tok(OK) });
    const again = await until(
      () => at('/ok', 'replayed'),
      (r) => r.length === 2,
    );
    const foreign = await call('POST', `/v1/webhook/deliveries/${id}/replay`, { token: await tok(OTHER) });
    const unknown = await call('POST', '/v1/webhook/deliveries/no-such-delivery/replay', { token: await tok(OK) });
    // Assess
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ id, status: 'pending' });
    expect(again.map((r) => r.headers['webhook-id'])).toEqual([id, id]);
    expectErrorShape(foreign, 404, 'not_found');
    expectErrorShape(unknown, 404, 'not_found');
    const log = await until(
      () => deliveriesOf(OK),
      (l) => l.data.some((d: any) => d.id === id && d.status === 'delivered' && d.attempts === 2),
    );
    expect(log.data.find((d: any) => d.id === id)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('after a rotation signs with both secrets, so the receiver verifies with either', async () => {
    // Prepare
    const old = await configure(OK, '/ok');
    // Act
    const rotated = await call('POST', '/v1/webhook/config/rotate-secret', { token: await tok(OK) });
    await createTemplate(OK, 'rotated');
    const [arrived] = await until(
      () => at('/ok', 'rotated'),
      (r) => r.length === 1,
    );
    // Assess
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({
      client_id: OK,
      signing_secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: expect.any(String),
    });
    expect(rotated.body.signing_secret).not.toBe(old);
    const headers = arrived.headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(arrived.body, headers)).toMatchObject({ type: 'template.created' });
    expect(new Webhook(rotated.body.signing_secret).verify(arrived.body, headers)).toMatchObject({ type: 'template.created' });
    expect((await call('GET', '/v1/webhook/config', { token: await tok(OK) })).body.signing_secret).toBe(rotated.body.signing_secret);
    expectErrorShape(await call('POST', '/v1/webhook/config/rotate-secret', { token: await tok(OTHER) }), 404, 'not_found');
  });
});

describe('GET /v1/webhook/deliveries (decisions §15)', () => {
  it('pages newest first with the total, filters by status, and keeps to the acting client', async () => {
    // Prepare: client OK has several deliveries by now
    await until(
      () => deliveriesOf(OK),
      (l) => l.total >= 3,
    );
    // Act
    const all = await deliveriesOf(OK);
    const firstPage = (await call('GET', '/v1/webhook/deliveries?size=1&page=1', { token: await tok(OK) })).body;
    const secondPage = (await call('GET', '/v1/webhook/deliveries?size=1&page=2', { token: await tok(OK) })).body;
    const bsp = await call('GET', `/v1/webhook/deliveries?client_id=${OK}`, { token: await token({ clientId: OTHER, bsp: true }) });
    const other = await call('GET', `/v1/webhook/deliveries?client_id=${OK}`, { token: await tok(OTHER) });
    const bad = await call('GET', '/v1/webhook/deliveries?status=lost', { token: await tok(OK) });
    // Assess
    expect(all.data.map((d: any) => d.created_at)).toEqual([...all.data.map((d: any) => d.created_at)].sort().reverse());
    expect(all.total).toBe(all.data.length);
    const shape = [
      'id',
      'event_id',
      'type',
      'status',
      'attempts',
      'last_status_code',
      'last_error',
      'next_attempt_at',
      'created_at',
      'delivered_at',
    ];
    for (const delivery of all.data) expect(Object.keys(delivery).filter((k) => !shape.includes(k))).toEqual([]);
    expect(firstPage).toMatchObject({ total: all.total, page: 1, page_size: 1, data: [all.data[0]] });
    expect(secondPage.data).toEqual([all.data[1]]);
    expect(bsp.body.total).toBe(all.total);
    expectErrorShape(other, 403, 'forbidden');
    expectErrorShape(bad, 400);
    expect((await deliveriesOf(OTHER)).total).toBe(0);
  });

  it('refuses local receivers other than http://127.0.0.1:<port>, even with ALLOW_LOCAL_WEBHOOKS', async () => {
    for (const url of ['http://localhost:8080/x', 'http://10.0.0.1:8080/x', 'http://127.0.0.1/x', 'http://example.com:8080/x']) {
      expectErrorShape(await call('PUT', '/v1/webhook/config', { token: await tok(OTHER), body: { url } }), 400, 'validation_failed');
    }
  });
});
