import { readFileSync } from 'node:fs';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { call, emulator, expectErrorShape, meterOf, queuedBy, token } from '../support/api.ts';
import { BATCH_BYTES } from '#lib/adapters/sqs/job-queue.ts';
import { seedDirectory, useStackTable, waba } from '../support/seed.ts';
import { trackOrderRecipients } from '../support/recipients.ts';

/**
 * Sends through client 7's DID 5215550001 (WABA 100200300). The tests read a send's jobs from what its
 * request queued (the local stack records it), since the dispatcher takes them off the queue at once;
 * test/http/dispatch.test.ts follows them to the upstream.
 */
const DID = '5215550001';
const acme = () => token({ clientId: 7, campaigns: [31] });

afterEach(() => emulator('DELETE', 'faults?path=/100200300/message_templates'));

const demo = JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8'));
const trackOrder = { ...demo.wabas[0].templates.find((t: { name: string }) => t.name === 'track_order'), id: 't450' };

const send = async (body: Record<string, unknown>, options: { did?: string; t?: string } = {}) =>
  call('POST', `/v1/template/messages/${options.did ?? DID}`, {
    token: options.t ?? (await acme()),
    body: { did: DID, type: 'template', channel: 'MSGCHAN', ...body },
  });

describe('POST /v1/template/messages/{did} (spec §1, decisions §5)', () => {
  it('queues a job with the resolved namespace, components and contact count, and the caller’s fields unchanged', async () => {
    // Act
    const response = await send({
      template: { name: 'order_update', language: 'es' },
      recipients: [
        { to: '5215550100', params: { body: ['A-7'] } },
        { to: '5215550100', params: { body: ['A-8'] } },
      ],
      attends: { typification: 4 },
      allow_duplicates: false,
      message_send_ttl_seconds: 3600,
      campaignId: 31,
    });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const [job] = await queuedBy(response);
    expect(job).toMatchObject({
      namespace: 'a1b2c3d4_e5f6_7a8b_9c0d_e1f2a3b4c5d6',
      phone_number_id: '110001',
      total_contacts: 2,
      job: 1,
      jobs: 1,
      attends: { typification: 4, waitTime: 0 },
      allow_duplicates: false,
      message_send_ttl_seconds: 3600,
      campaignId: 31,
      template: { name: 'order_update', language: 'es', components: [{ type: 'BODY', text: 'Pedido {{1}} enviado' }] },
    });
    // Repeated recipients are kept: removing them is the dispatch engine's job.
    expect(job.recipients).toHaveLength(2);
  });

  it('warns when campaignId names a campaign the template is not assigned to for the client', async () => {
    const response = await send({
      template: { name: 'order_update', language: 'es' },
      recipients: [{ to: '5215550100', params: { body: ['x'] } }],
      campaignId: 32,
    });
    expect(response.status).toBe(200);
    expect(response.body.warning).toContain('campaign 32');
  });

  it('splits a large list into several jobs of one send', async () => {
    const recipients = Array.from({ length: 2500 }, (_, i) => ({ to: String(5215550000 + i), params: { body: [`A-${i}`] } }));
    const response = await send({ template: { name: 'order_update', language: 'es' }, recipients });
    expect(response.status).toBe(200);
    const jobs = await queuedBy(response);
    expect(jobs.map((j) => j.recipients.length)).toEqual([1000, 1000, 500]);
    expect(jobs.every((j) => j.total_contacts === 2500 && j.jobs === 3)).toBe(true);
  });

  it('checks every recipient’s params against the template, naming the recipient', async () => {
    const response = await send({
      template: { name: 'track_order', language: 'en_US' },
      recipients: [
        { to: '5215550100', params: { header: ['A-1'], body: ['Ana', 'A-1'], buttons: ['A-1', 'SAVE10'] } },
        { to: '5215550101', params: { header: ['A-1'], body: ['Ana'], buttons: ['A-1'] } },
      ],
    });
    const error = expectErrorShape(response, 400, 'validation_failed');
    expect(error.details?.map((d) => d.path)).toEqual(['recipients[1].params.body', 'recipients[1].params.buttons']);
  });

  it('checks carousel cards and requires a matching media or location header', async () => {
    const cards = await send({
      template: { name: 'spring_cards', language: 'en_US' },
      recipients: [{ to: '5215550100', params: { cards: [{ body: ['1'], buttons: ['a'] }] } }],
    });
    expect(expectErrorShape(cards, 400).details?.[0].path).toBe('recipients[0].params.cards');
    const okCards = await send({
      template: { name: 'spring_cards', language: 'en_US' },
      recipients: [
        {
          to: '5215550100',
          params: {
            cards: [
              { body: ['1'], buttons: ['a'] },
              { body: ['2'], buttons: ['b'] },
            ],
          },
        },
      ],
    });
    expect(okCards.status).toBe(200);
    const image = { template: { name: 'promo_image', language: 'en_US' }, recipients: [{ to: '5215550100', params: { body: ['Ana'] } }] };
    expect(expectErrorShape(await send(image), 400).details?.[0].path).toBe('component.header');
    expect(
      expectErrorShape(await send({ ...image, component: { header: { type: 'video_url', value: 'https://cdn.example.com/v.mp4' } } }), 400)
        .details?.[0].path,
    ).toBe('component.header.type');
    expect(
      expectErrorShape(await send({ ...image, component: { header: { type: 'image_url', value: 'https://169.254.169.254/x.png' } } }), 400)
        .details?.[0].path,
    ).toBe('component.header.value');
    expect(
      (await send({ ...image, component: { header: { type: 'image_url', value: 'https://cdn.example.com/a.png', filename: 'a.png' } } }))
        .status,
    ).toBe(200);
    const location = {
      template: { name: 'store_location', language: 'en_US' },
      recipients: [{ to: '5215550100', params: { body: ['Main St'] } }],
    };
    const located = await send({
      ...location,
      component: {
        header: { type: 'location', location: { latitude: '19.43', longitude: '-99.13', name: 'Store', address: 'Main St 1' } },
      },
    });
    expect(located.status).toBe(200);
  });

  it('answers 400 for an invalid payload', async () => {
    for (const body of [
      { template: { name: 'order_update', language: 'es' } },
      { template: { name: 'order_update', language: 'es' }, recipients: [] },
      { template: { name: 'order_update', language: 'es' }, recipients: [{ to: 'not-a-number' }] },
      { template: { name: 'order_update', language: 'es' }, recipients: [{ to: '5215550100' }], type: 'text' },
      { template: { name: 'order_update', language: 'es' }, recipients: [{ to: '5215550100' }], namespace: 'x' },
      { template: { name: 'order_update', language: 'es' }, recipients: [{ to: '5215550100' }], did: '' },
    ]) {
      expectErrorShape(await send(body), 400, 'validation_failed');
    }
    const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ to: String(5215550000 + i) }));
    expectErrorShape(await send({ template: { name: 'order_update', language: 'es' }, recipients: tooMany }), 400);
  });

  it('answers 422 when the path did differs from the body did, and for a template that is not APPROVED or uses named parameters', async () => {
    const recipients = [{ to: '5215550100', params: { body: ['x'] } }];
    expectErrorShape(await send({ template: { name: 'order_update', language: 'es' }, recipients }, { did: '5215550002' }), 422);
    expectErrorShape(await send({ template: { name: 'summer_promo', language: 'en_US' }, recipients }), 422);
    expectErrorShape(await send({ template: { name: 'named_greeting', language: 'en_US' }, recipients }), 422);
  });

  it('answers 404 for an unknown name/language, 403 outside the hierarchy or for another client, 502 when the provider is down', async () => {
    const recipients = [{ to: '5215550100', params: { body: ['x'] } }];
    expectErrorShape(await send({ template: { name: 'order_update', language: 'fr' }, recipients }), 404, 'not_found');
    expectErrorShape(
      await send({ template: { name: 'order_update', language: 'es' }, recipients, did: '5511990021' }, { did: '5511990021' }),
      403,
    );
    expectErrorShape(await send({ template: { name: 'order_update', language: 'es' }, recipients, client_id: 8 }), 403);
    // A template the client has no record of is looked up upstream: a provider down is 502. Only this test's
    // lookups fail: other files read the same WABA's templates at the same time.
    const name = `outside_${Math.random().toString(36).slice(2, 8)}`;
    await emulator('POST', 'faults', { path: '/100200300/message_templates', query: `name=${name}`, status: 503 });
    expectErrorShape(await send({ template: { name, language: 'es' }, recipients }), 502, 'upstream_unavailable');
  });

  it('takes a synced template from the client’s record, without asking the upstream', async () => {
    // Prepare: every upstream lookup of the template fails
    await emulator('POST', 'faults', { path: '/100200300/message_templates', query: 'name=order_update&language=es', status: 503 });
    // Act
    const response = await send({
      template: { name: 'order_update', language: 'es' },
      recipients: [{ to: '5215550177', params: { body: ['B-1'] } }],
    });
    // Assess
    expect(response.status).toBe(200);
    const [job] = await queuedBy(response);
    expect(job.template).toMatchObject({
      name: 'order_update',
      language: 'es',
      components: [{ type: 'BODY', text: 'Pedido {{1}} enviado' }],
    });
  });

  it('accepts 10,000 recipients with header, body and button values (over 1.2 MB) in the fewest queue requests', async () => {
    // Prepare: track_order takes one header, two body and two button values
    const recipients = trackOrderRecipients(10_000);
    const payload = Buffer.byteLength(JSON.stringify(recipients));
    expect(payload).toBeGreaterThan(1_200_000);
    // (through a DID of its own that has no upstream number: its jobs are settled whole as failed, so the
    // 10,000 messages do not occupy the dispatcher during the rest of the test run)
    await seedDirectory({
      clients: [{ client_id: 450, client_name: 'Bulk' }],
      wabas: [waba('w450', [trackOrder])],
      channels: [{ wa_id: '5215545001', client_id: 450, waba_id: 'w450' }],
    });
    await emulator('POST', 'wabas', { id: 'w450', templates: [trackOrder] });
    // Act
    const response = await send(
      { did: '5215545001', template: { name: 'track_order', language: 'en_US' }, recipients },
      { did: '5215545001', t: await token({ clientId: 450, campaigns: [] }) },
    );
    // Assess: accepted; every recipient queued once; SQS requests the fewest the bytes allow
    expect(response.status).toBe(200);
    const meter = await meterOf(response);
    expect(meter.queueRequests).toBe(Math.ceil(meter.queueBytes / BATCH_BYTES));
    const jobs = await queuedBy(response);
    // As few jobs as their limits allow: 1,000 recipients and 204,000 bytes each
    expect(jobs).toHaveLength(Math.max(Math.ceil(meter.queueBytes / 204_000), 10));
    expect(jobs.flatMap((job) => job.recipients.map((r: { to: string }) => r.to))).toEqual(recipients.map((r) => r.to));
    expect(jobs.every((job) => job.jobs === jobs.length)).toBe(true);
  });

  it('answers 502 when the dispatch queue is unreachable', async () => {
    // Prepare: the deployed handler with an SQS client that cannot connect (a fault injected into the AWS client)
    useStackTable();
    process.env.DISPATCH_QUEUE_URL = inject('dispatchQueueUrl');
    process.env.GRAPH_API_URL = inject('graphUrl');
    process.env.GRAPH_API_TOKEN = 'local-graph-access-token';
    const { queueClient } = await import('#lib/wiring/queues.ts');
    const unreachable = new SQSClient({ endpoint: 'http://127.0.0.1:1', region: 'us-east-1', maxAttempts: 1 });
    const send = vi.spyOn(queueClient(), 'send').mockImplementation((command) => unreachable.send(command as never));
    const { handler } = (await import('../../functions/http/send-template.ts')) as {
      handler: (e: APIGatewayProxyEventV2, c: unknown) => Promise<{ statusCode: number; body: string }>;
    };
    const event = {
      version: '2.0',
      routeKey: 'POST /v1/template/messages/{did}',
      rawPath: `/v1/template/messages/${DID}`,
      rawQueryString: '',
      headers: { 'content-type': 'application/json' },
      pathParameters: { did: DID },
      isBase64Encoded: false,
      requestContext: {
        requestId: 'req-q',
        http: { method: 'POST', path: '/' },
        authorizer: { jwt: { claims: { sub: 's', client_id: '7', campaigns: '[31]' } } },
      },
      body: JSON.stringify({
        did: DID,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'order_update', language: 'es' },
        recipients: [{ to: '5215550100', params: { body: ['x'] } }],
      }),
    } as unknown as APIGatewayProxyEventV2;
    // Act
    const response = await handler(event, {});
    // Assess
    expect(response.statusCode).toBe(502);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'upstream_unavailable', request_id: 'req-q' });
    send.mockRestore();
  });
});
