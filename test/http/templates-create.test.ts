import { afterEach, describe, expect, it } from 'vitest';
import { apiUrl, call, emulator, expectErrorShape, token } from '../support/api.ts';
import { useStackTable } from '../support/seed.ts';
import { CREATE_RULE_CASES, validUtilityTemplate } from '../support/template-rule-cases.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { PAST_GRAPH_TIMEOUT_MS } from '../support/graph-timeouts.ts';

const table = serviceTable();

/**
 * Creation through the running stack. Client 9 (Gamma) owns DID 5511990021 on WABA 100200400, with
 * campaign 51 and contact channel 71; client 10 (Delta) owns DID 15550100031 on WABA 100200500, the WABA
 * the outage tests break. Names carry a random suffix so reruns never collide.
 */
const DID = '5511990021';
const suffix = () => Math.random().toString(36).slice(2, 8);
const gamma = () => token({ clientId: 9, campaigns: [51], sub: 'gina' });

afterEach(async () => {
  await emulator('DELETE', 'faults?path=/100200500/message_templates&method=POST');
});

const utility = validUtilityTemplate;

const create = async (body: unknown, options: { did?: string; t?: string; query?: string } = {}) =>
  call('POST', `/v1/templates/${options.did ?? DID}${options.query ?? ''}`, { token: options.t ?? (await gamma()), body });

async function upstreamTemplate(id: string) {
  const state = await emulator('GET', 'state');
  return state.wabas.flatMap((w: { templates: { id: string }[] }) => w.templates).find((t: { id: string }) => t.id === id);
}

async function listed(client: number, name: string) {
  const response = await call('GET', `/v1/templates?client_id=${client}&name=${name}`, { token: await token({ clientId: 1, bsp: true }) });
  return response.body.data as Record<string, any>[];
}

async function routedCreations(metaId: string) {
  const { routed } = (await (await fetch(`${apiUrl()}/_local/events`)).json()) as { routed: { rule: string; event: any }[] };
  return routed.filter((r) => r.event['detail-type'] === 'template.created' && r.event.detail.data.meta_template.id === metaId);
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

describe('POST /v1/templates/{did}: success', () => {
  it('creates a UTILITY template with a text header and a URL button, registers its record and fires one event', async () => {
    // Prepare
    const name = `order_ready_${suffix()}`;
    // Act
    const response = await create(utility(name));
    // Assess: the upstream's create body, passed through
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['category', 'id', 'status']);
    expect(response.body).toMatchObject({ status: 'PENDING', category: 'UTILITY' });
    const upstream = await upstreamTemplate(response.body.id);
    expect(upstream).toMatchObject({ name, language: 'en_US', status: 'PENDING', parameter_format: 'POSITIONAL' });
    const [entry] = await listed(9, name);
    expect(entry).toMatchObject({
      client_id: 9,
      waba_id: '100200400',
      namespace: 'c1b2c3d4_e5f6_7a8b_9c0d_e1f2a3b4c5d8',
      active: false,
      channel_campaigns: [],
    });
    expect(entry.meta_template).toMatchObject({ id: response.body.id, name, status: 'PENDING', category: 'UTILITY' });
    const { DynamoTemplateRecords } = await import('#lib/adapters/dynamo/templates/template-records.ts');
    useStackTable();
    const record = await new DynamoTemplateRecords(table).get(entry.id);
    expect(record).toMatchObject({ createdBy: 'gina', headerType: 'TEXT', syncMeta: { source: 'create' }, isDirectMessage: false });
    const events = await eventually(
      () => routedCreations(response.body.id),
      (e) => e.length > 0,
    );
    expect(events).toHaveLength(1);
    expect(events[0].rule).toBe('TemplateEventsToWebhookQueue');
    expect(events[0].event.detail).toMatchObject({ type: 'template.created', client_id: 9, data: { id: entry.id } });
  });

  it('creates a MARKETING template with an IMAGE header from a multipart file', async () => {
    const name = `spring_sale_${suffix()}`;
    const template = {
      name,
      language: 'es',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Spring sale: {{1}} off', example: { body_text: [['20%']] } },
      ],
    };
    const form = new FormData();
    form.append('template', JSON.stringify(template));
    form.append('file', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], { type: 'image/png' }), 'banner.png');
    const response = await fetch(`${apiUrl()}/v1/templates/${DID}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await gamma()}` },
      body: form,
    });
    const body = (await response.json()) as { id: string; category: string };
    expect(response.status).toBe(200);
    expect(body.category).toBe('MARKETING');
    const upstream = await upstreamTemplate(body.id);
    expect(upstream.components[0].example.header_handle[0]).toMatch(/^4::/);
    const [entry] = await listed(9, name);
    expect(entry.meta_template.components[0].format).toBe('IMAGE');
  });

  it('creates an AUTHENTICATION template with a COPY_CODE button, the security line and the code expiry', async () => {
    const name = `login_otp_${suffix()}`;
    const response = await create({
      name,
      language: 'en_US',
      category: 'AUTHENTICATION',
      components: [{ type: 'BODY' }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] }],
      add_security_recommendation: true,
      code_expiration_minutes: 5,
      message_send_ttl_seconds: 300,
    });
    expect(response.status).toBe(200);
    // Assess: what the service asked of the upstream, in the create syntax of upstream-facts §3.6
    const { calls } = await emulator('GET', 'calls');
    const sent = calls.find((c: { method: string; body?: { name?: string } }) => c.method === 'POST' && c.body?.name === name).body;
    expect(sent.category).toBe('AUTHENTICATION');
    expect(sent.message_send_ttl_seconds).toBe(300);
    expect(sent.components).toEqual([
      { type: 'BODY', add_security_recommendation: true },
      { type: 'FOOTER', code_expiration_minutes: 5 },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
    ]);
    // ... and what the upstream stores: Graph's form, the preset text with the code as {{1}} and a URL button
    const upstream = await upstreamTemplate(response.body.id);
    expect(upstream.components[0].text).toBe('{{1}} is your verification code. For your security, do not share this code.');
    expect(upstream.components[2].buttons[0]).toMatchObject({ type: 'URL', url: expect.stringContaining('otp{{1}}') });
    expect(await listed(9, name)).toHaveLength(1);
  });

  it('assigns the new template to the requested channel/campaign pairs instead of a placeholder', async () => {
    const name = `with_pairs_${suffix()}`;
    const response = await create({ ...utility(name), channel_campaigns: { assignments: [{ channel_id: 71, campaign_id: 51 }] } });
    expect(response.status).toBe(200);
    const [entry] = await listed(9, name);
    expect(entry.channel_campaigns).toEqual([
      {
        campaign_id: 51,
        campaign_name: 'Reminders',
        channels: [{ channel_id: 71, name: 'Gamma WA', did: DID, type: 'MSGCHAN', waba_id: '100200400' }],
      },
    ]);
  });

  it('lets BSP_CN create for another client through client_id in the query', async () => {
    const name = `bsp_made_${suffix()}`;
    const response = await create(utility(name), { t: await token({ clientId: 1, bsp: true, sub: 'ops' }), query: '?client_id=9' });
    expect(response.status).toBe(200);
    expect((await listed(9, name))[0].client_id).toBe(9);
  });
});

describe('POST /v1/templates/{did}: errors', () => {
  it('answers 400 when the did is blank', async () => {
    const error = expectErrorShape(await create(utility(`x_${suffix()}`), { did: '%20' }), 400, 'validation_failed');
    expect(error.details?.[0]).toEqual({ path: 'id', message: 'did is required' });
  });

  it('answers 403 for a DID outside the client’s hierarchy and for another client without BSP_CN', async () => {
    expectErrorShape(await create(utility(`x_${suffix()}`), { did: '5215550001' }), 403, 'forbidden');
    expectErrorShape(await create({ ...utility(`x_${suffix()}`), client_id: 7 }), 403, 'forbidden');
    expectErrorShape(await create(utility(`x_${suffix()}`), { query: '?client_id=7' }), 403, 'forbidden');
  });

  it.each(CREATE_RULE_CASES)('answers 400 naming %s', async (path, change) => {
    const body = { ...utility(`bad_${suffix()}`), ...change };
    const error = expectErrorShape(await create(body), 400, 'validation_failed');
    expect(error.details?.map((d) => d.path)).toContain(path);
  });

  it.each([
    ['MARKETING below 12 hours', 'MARKETING', 3600],
    ['MARKETING with -1', 'MARKETING', -1],
    ['AUTHENTICATION above 900', 'AUTHENTICATION', 901],
  ])('refuses message_send_ttl_seconds for %s', async (_, category, ttl) => {
    const components =
      category === 'AUTHENTICATION'
        ? [{ type: 'BODY' }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] }]
        : [{ type: 'BODY', text: 'Sale' }];
    const error = expectErrorShape(
      await create({ name: `ttl_${suffix()}`, language: 'en_US', category, components, message_send_ttl_seconds: ttl }),
      400,
    );
    expect(error.details?.[0].path).toBe('message_send_ttl_seconds');
  });

  it('accepts -1 for UTILITY and AUTHENTICATION', async () => {
    expect((await create({ ...utility(`ttl_${suffix()}`), message_send_ttl_seconds: -1 })).status).toBe(200);
  });

  it('refuses AUTHENTICATION without an OTP button, a bad otp_type, bad apps and a code expiry out of range', async () => {
    const auth = (components: unknown[], extra = {}) =>
      create({ name: `auth_${suffix()}`, language: 'en_US', category: 'AUTHENTICATION', components, ...extra });
    expectErrorShape(await auth([{ type: 'BODY' }]), 400);
    expectErrorShape(await auth([{ type: 'BODY' }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'MAGIC' }] }]), 400);
    const apps = await auth([
      { type: 'BODY' },
      {
        type: 'BUTTONS',
        buttons: [{ type: 'OTP', otp_type: 'ONE_TAP', supported_apps: [{ package_name: 'nodots', signature_hash: 'short' }] }],
      },
    ]);
    expect(expectErrorShape(apps, 400).details?.map((d) => d.path)).toEqual([
      'components[1].buttons[0].supported_apps[0].package_name',
      'components[1].buttons[0].supported_apps[0].signature_hash',
    ]);
    const expiry = await auth([{ type: 'BODY' }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] }], {
      code_expiration_minutes: 16,
    });
    expect(expectErrorShape(expiry, 400).details?.[0].path).toBe('code_expiration_minutes');
    const ok = await auth([
      { type: 'BODY' },
      {
        type: 'BUTTONS',
        buttons: [
          {
            type: 'OTP',
            otp_type: 'ONE_TAP',
            autofill_text: 'Autofill',
            supported_apps: [{ package_name: 'com.example.app', signature_hash: 'K8a/AINcGX7' }],
          },
        ],
      },
    ]);
    expect(ok.status).toBe(200);
  });

  it('answers 400 when header_source and header_handle come together', async () => {
    const body = {
      ...utility(`media_${suffix()}`),
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'x' },
      ],
      header_source: 'https://cdn.example.com/a.png',
      header_handle: '4::abc',
    };
    expect(expectErrorShape(await create(body), 400).message).toBe('header_source and header_handle are mutually exclusive');
  });

  it.each([
    'http://cdn.example.com/a.png',
    'https://127.0.0.1/a.png',
    'https://[::ffff:10.0.0.1]/a.png',
    'https://0xa9fea9fe/latest',
    'https://localhost/a.png',
  ])('answers 400 for the blocked media URL %s', async (url) => {
    const body = {
      ...utility(`media_${suffix()}`),
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'x' },
      ],
      header_source: url,
    };
    expect(expectErrorShape(await create(body), 400).message).toBe('Media URL is not HTTPS or points to a private IP (blocked)');
  });

  it('accepts a caller’s header_handle and puts it in the header example', async () => {
    const name = `handle_${suffix()}`;
    const response = await create({
      ...utility(name),
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'VIDEO' },
        { type: 'BODY', text: 'Watch' },
      ],
      header_handle: '4::dmlkZW8=:given',
    });
    expect(response.status).toBe(200);
    expect((await upstreamTemplate(response.body.id)).components[0].example.header_handle).toEqual(['4::dmlkZW8=:given']);
  });

  it('answers 400 for a media header without a source and for a file of the wrong type', async () => {
    const media = {
      ...utility(`media_${suffix()}`),
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'x' },
      ],
    };
    expectErrorShape(await create(media), 400);
    const form = new FormData();
    form.append('template', JSON.stringify(media));
    form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'application/pdf' }), 'doc.pdf');
    const response = await fetch(`${apiUrl()}/v1/templates/${DID}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await gamma()}` },
      body: form,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { details: { path: string }[] }).details[0].path).toBe('file');
  });

  it('answers 413 for a multipart body over 4 MiB', async () => {
    const form = new FormData();
    form.append(
      'template',
      JSON.stringify({
        ...utility(`big_${suffix()}`),
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: 'x' },
        ],
      }),
    );
    form.append('file', new Blob([new Uint8Array(4 * 1024 * 1024 + 10)], { type: 'image/png' }), 'big.png');
    const response = await fetch(`${apiUrl()}/v1/templates/${DID}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await gamma()}` },
      body: form,
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { code: string }).code).toBe('payload_too_large');
  });

  it('answers 400 for malformed JSON, a multipart body without its template part, and an unknown part', async () => {
    expectErrorShape(
      await call('POST', `/v1/templates/${DID}`, {
        token: await gamma(),
        rawBody: '{"name":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
    );
    const form = new FormData();
    form.append('other', 'x');
    const response = await fetch(`${apiUrl()}/v1/templates/${DID}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await gamma()}` },
      body: form,
    });
    expect(response.status).toBe(400);
  });

  it('answers 409 for a duplicate name and language, with the upstream’s message', async () => {
    const name = `twice_${suffix()}`;
    expect((await create(utility(name))).status).toBe(200);
    const error = expectErrorShape(await create(utility(name)), 409, 'conflict');
    expect(error.message).toContain('already exists');
    expect(await listed(9, name)).toHaveLength(1);
  });

  it('refuses an unknown pair before anything reaches the upstream', async () => {
    const name = `pairless_${suffix()}`;
    const error = expectErrorShape(
      await create({ ...utility(name), channel_campaigns: { assignments: [{ channel_id: 41, campaign_id: 51 }] } }),
      400,
    );
    expect(error.message).toContain('channel_id: 41');
    const { calls } = await emulator('GET', 'calls');
    expect(calls.filter((c: { body?: { name?: string } }) => c.body?.name === name)).toHaveLength(0);
  });

  it('answers 502 when the upstream is down and leaves no record behind', async () => {
    // Prepare: Delta's WABA answers 503 to every create
    await emulator('POST', 'faults', { path: '/100200500/message_templates', method: 'POST', status: 503 });
    const name = `outage_${suffix()}`;
    // Act
    const response = await create(utility(name), { did: '15550100031', t: await token({ clientId: 10, campaigns: [1] }) });
    // Assess
    expectErrorShape(response, 502, 'upstream_unavailable');
    expect(await listed(10, name)).toEqual([]);
  });

  it('answers 502 when the upstream times out', async () => {
    await emulator('POST', 'faults', { path: '/100200500/message_templates', method: 'POST', delayMs: PAST_GRAPH_TIMEOUT_MS, times: 1 });
    const response = await create(utility(`slow_${suffix()}`), { did: '15550100031', t: await token({ clientId: 10, campaigns: [1] }) });
    expectErrorShape(response, 502, 'upstream_unavailable');
  });
});

describe('the creation event when EventBridge fails', () => {
  it('keeps the event in the outbox and the relay delivers it exactly once', async () => {
    // Prepare: EventBridge refuses every attempt (the SDK tries three times) to publish this template's event
    const name = `outboxed_${suffix()}`;
    await fetch(`${apiUrl()}/_local/eventbridge/faults`, { method: 'POST', body: JSON.stringify({ times: 3, match: name }) });
    // Act
    const response = await create(utility(name));
    // Assess: the request succeeded, the record exists, the event is not routed yet
    expect(response.status).toBe(200);
    expect(await listed(9, name)).toHaveLength(1);
    expect(await routedCreations(response.body.id)).toHaveLength(0);
    // Act: the relay runs
    const relay = (await (await fetch(`${apiUrl()}/_local/relay-outbox?graceMs=0`, { method: 'POST' })).json()) as { relayed: number };
    expect(relay.relayed).toBeGreaterThanOrEqual(1);
    await fetch(`${apiUrl()}/_local/relay-outbox?graceMs=0`, { method: 'POST' });
    // Assess: delivered once, and a second relay run finds nothing more
    expect(await routedCreations(response.body.id)).toHaveLength(1);
  });
});
