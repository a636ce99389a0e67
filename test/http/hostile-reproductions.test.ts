import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { apiUrl, call, emulator, expectErrorShape, token, tokens } from '../support/api.ts';
import { PAST_GRAPH_TIMEOUT_MS } from '../support/graph-timeouts.ts';

/** Each defect reproduced against the running stack (issue 9), with the contract's answer it now gets. */
const DID = '5511990021'; // client 9, WABA 100200400
const gamma = () => token({ clientId: 9, campaigns: [51] });
const suffix = () => Math.random().toString(36).slice(2, 8);
const template = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  language: 'en_US',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Parcel {{1}} left', example: { body_text: [['P-1']] } }],
  ...extra,
});

afterEach(() => emulator('DELETE', 'faults?path=/100200400/message_templates&method=POST'));

/** Sends raw bytes over a socket and returns the status line and body (what fetch would refuse to send). */
function rawRequest(text: string): Promise<{ status: number; body: string }> {
  const url = new URL(apiUrl());
  return new Promise((resolve, reject) => {
    // Written, not ended: the server answers and closes (Connection: close, or after its own refusal).
    const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
    // An idle socket's guard, not a bound on the answer's time: a busy shared stack may take seconds.
    socket.setTimeout(60_000, () => socket.destroy(new Error('no answer')));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('end', () => resolve({ status: Number(answer.split(' ')[1]), body: answer.slice(answer.indexOf('\r\n\r\n') + 4) }));
    socket.on('error', reject);
  });
}

describe('hostile input, reproduced', () => {
  it('a multipart body with no closing boundary is a 400, and the stack keeps serving', async () => {
    const body = '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc';
    const response = await call('POST', `/v1/templates/${DID}`, {
      token: await gamma(),
      rawBody: body,
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
    });
    expectErrorShape(response, 400, 'validation_failed');
    expect((await call('GET', '/v1/client-msg-channels', { token: await gamma() })).status).toBe(200);
  });

  it('a send naming a template language of 1,000 characters is a 400, in the send and its dry run (was a 500)', async () => {
    for (const query of ['', '?dry_run=true']) {
      const response = await call('POST', `/v1/template/messages/5215550001${query}`, {
        token: await tokens.acme(),
        body: {
          did: '5215550001',
          type: 'template',
          channel: 'MSGCHAN',
          template: { name: 'order_update', language: 'x'.repeat(1000) },
          recipients: [{ to: '+52 1 555 010 0001', params: { body: ['A-1001'] } }],
        },
      });
      expectErrorShape(response, 400);
    }
  });

  it('a malformed percent-escape in a path segment is a 4xx in the error shape', async () => {
    const response = await call('GET', '/v1/catalogs/%E0%A4%A', { token: await gamma() });
    expect(response.status).toBe(403);
    expectErrorShape(response, 403);
    expectErrorShape(await call('GET', '/v1/nowhere/%E0%A4%A', { token: await gamma() }), 404);
  });

  it('a null card component is a 400 naming it, in create and in edit', async () => {
    const cards = [{ components: [null] }, { components: [null] }];
    const components = [
      { type: 'BODY', text: 'Hi' },
      { type: 'CAROUSEL', cards },
    ];
    const created = expectErrorShape(
      await call('POST', `/v1/templates/${DID}`, {
        token: await gamma(),
        body: { ...template(`cards_${suffix()}`), category: 'MARKETING', components },
      }),
      400,
    );
    expect(created.details?.map((d) => d.path)).toContain('components[1].cards[0].components[0]');
    const edited = await call('PUT', `/v1/templates/5215550001/65a1b2c3d4e5f60718293a4b`, {
      token: await token({ clientId: 7, campaigns: [31] }),
      body: { components },
    });
    expectErrorShape(edited, 400);
  });

  it('the local server’s own refusals are in the error shape: 413, 431 and a malformed Host', async () => {
    const big = await fetch(`${apiUrl()}/v1/webhook/config`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(11 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'payload_too_large', request_id: expect.any(String) });
    const headers = await rawRequest(`GET /v1/templates HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(headers.status).toBe(431);
    expect(JSON.parse(headers.body)).toMatchObject({ code: 'request_header_fields_too_large' });
    const host = await rawRequest('GET /v1/openapi.json HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n');
    expect(host.status).toBeLessThan(500);
  }, 180_000);

  it('refuses, before the upstream is called, an optimization_spec or components the record could not hold', async () => {
    const name = `huge_${suffix()}`;
    // bid_strategy has no length limit in the contract: 420 KB of it passes the schema, never the table.
    const spec = { bid_amount: 1, bid_strategy: 'x'.repeat(420 * 1024) };
    const deep = (() => {
      let value: unknown = 'x';
      for (let i = 0; i < 40; i++) value = { nested: value };
      return value;
    })();
    const tooDeep = expectErrorShape(
      await call('POST', `/v1/templates/${DID}`, {
        token: await gamma(),
        body: template(name, { components: [{ type: 'BODY', text: 'Hi', extra: deep }] }),
      }),
      400,
    );
    expect(tooDeep.details?.[0].path).toBe('components');
    const large = template(name, { components: [{ type: 'BODY', text: 'Hi', note: 'x'.repeat(410 * 1024) }] });
    const tooLarge = expectErrorShape(await call('POST', `/v1/templates/${DID}`, { token: await gamma(), body: large }), 400);
    expect(tooLarge.details?.[0].path).toBe('components');
    const bigSpec = expectErrorShape(
      await call('POST', `/v1/templates/${DID}`, { token: await gamma(), body: template(name, { optimization_spec: spec }) }),
      400,
    );
    expect(bigSpec.details?.[0].path).toBe('optimization_spec');
    const { calls } = await emulator('GET', 'calls');
    expect(calls.filter((c: { body?: { name?: string } }) => c.body?.name === name)).toEqual([]);
  });

  it('a create whose upstream answer is lost is adopted: record and event made, and a retry gets 409, not a second template', async () => {
    // Prepare: Graph makes this template, then answers too late for the service's deadline
    const name = `lost_${suffix()}`;
    await emulator('POST', 'faults', {
      path: '/100200400/message_templates',
      method: 'POST',
      body: name,
      afterAccept: true,
      delayMs: PAST_GRAPH_TIMEOUT_MS,
      times: 1,
    });
    // Act
    const first = await call('POST', `/v1/templates/${DID}`, { token: await gamma(), body: template(name) });
    const retry = await call('POST', `/v1/templates/${DID}`, { token: await gamma(), body: template(name) });
    // Assess
    expect(first.status).toBe(200);
    expectErrorShape(retry, 409, 'conflict');
    const state = await emulator('GET', 'state');
    const made = state.wabas
      .flatMap((w: { templates: { name: string; id: string }[] }) => w.templates)
      .filter((t: { name: string }) => t.name === name);
    expect(made.map((t: { id: string }) => t.id)).toEqual([first.body.id]);
    const listed = await call('GET', `/v1/templates?name=${name}`, { token: await gamma() });
    expect(listed.body.data).toHaveLength(1);
  });

  it('refuses an IPv4-compatible IPv6 webhook URL', async () => {
    for (const url of ['https://[::127.0.0.1]/hook', 'https://[::169.254.169.254]/latest', 'https://[::10.0.0.1]/']) {
      expectErrorShape(await call('PUT', '/v1/webhook/config', { token: await gamma(), body: { url } }), 400);
    }
  });

  it('an edit whose upstream answer is lost leaves the record holding what the upstream holds', async () => {
    // Prepare: a template of this test's own, approved upstream
    const name = `edit_lost_${suffix()}`;
    const created = await call('POST', `/v1/templates/${DID}`, { token: await gamma(), body: template(name) });
    await emulator('POST', `templates/${created.body.id}/status`, { status: 'APPROVED' });
    const [record] = (await call('GET', `/v1/templates?name=${name}`, { token: await gamma() })).body.data as { id: string }[];
    const components = [{ type: 'BODY', text: 'Parcel {{1}} arrived', example: { body_text: [['P-1']] } }];
    await emulator('POST', 'faults', {
      path: `/${created.body.id}`,
      method: 'POST',
      afterAccept: true,
      delayMs: PAST_GRAPH_TIMEOUT_MS,
      times: 1,
    });
    // Act
    const edited = await call('PUT', `/v1/templates/${DID}/${record.id}`, { token: await gamma(), body: { components } });
    // Assess
    expect(edited.status).toBe(200);
    const state = await emulator('GET', 'state');
    const upstream = state.wabas
      .flatMap((w: { templates: { id: string }[] }) => w.templates)
      .find((t: { id: string }) => t.id === created.body.id);
    const [entry] = (await call('GET', `/v1/templates?name=${name}`, { token: await gamma() })).body.data as {
      meta_template: { components: unknown; status: string };
    }[];
    expect(entry.meta_template.components).toEqual(upstream.components);
    expect(entry.meta_template.status).toBe(upstream.status);
  });
  it('a multipart part with no name is a 400 (it had ended the process), in a create and its dry run, and the stack keeps serving', async () => {
    // Prepare: parts whose Content-Disposition names no field, or is missing
    const parts = [
      'Content-Disposition: form-data\r\n\r\n{}',
      'Content-Disposition: form-data; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc',
      'Content-Type: text/plain\r\n\r\nhello',
    ];
    for (const part of parts)
      for (const query of ['', '?dry_run=true']) {
        // Act
        const response = await call('POST', `/v1/templates/${DID}${query}`, {
          token: await gamma(),
          rawBody: `--XyZ\r\n${part}\r\n--XyZ--\r\n`,
          headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
        });
        // Assess
        expectErrorShape(response, 400, 'validation_failed');
        expect(response.body.details[0]).toMatchObject({ path: 'part 1' });
      }
    expect((await call('GET', '/v1/client-msg-channels', { token: await gamma() })).status).toBe(200);
  });

  it('a page far past the end is an empty page, not a 500 (the offset had passed what a Query takes)', async () => {
    for (const path of ['/v1/sends?page=999999999', '/v1/templates?page=999999999&size=100', '/v1/webhook/deliveries?page=999999999']) {
      // Act
      const response = await call('GET', path, { token: await gamma() });
      // Assess
      expect(response.status, path).toBe(200);
      expect(response.body.data, path).toEqual([]);
    }
  });

  it('another tenant’s DID or record is refused before the body is judged: 403 / 404, never a dry run’s 200 or a 400', async () => {
    // Prepare: an agent of client 9 naming client 7's number and record, with bodies good and bad
    const foreignDid = '5215550001';
    const foreignRecord = '65a1b2c3d4e5f60718293a4b';
    const send = { did: foreignDid, type: 'template', channel: 'MSGCHAN', template: { name: 'order_update', language: 'en_US' } };
    // Act and assess
    for (const body of [{ ...send, recipients: [{ to: '5215550100' }] }, { nonsense: true }])
      for (const query of ['', '?dry_run=true'])
        expectErrorShape(await call('POST', `/v1/template/messages/${foreignDid}${query}`, { token: await gamma(), body }), 403);
    for (const body of [template(`foreign_${suffix()}`), { name: 42 }])
      for (const query of ['', '?dry_run=true'])
        expectErrorShape(await call('POST', `/v1/templates/${foreignDid}${query}`, { token: await gamma(), body }), 403);
    expectErrorShape(
      await call('PUT', `/v1/templates/${foreignDid}/${foreignRecord}?dry_run=true`, { token: await gamma(), body: { components: 7 } }),
      403,
    );
    expectErrorShape(
      await call('PUT', `/v1/templates/${DID}/${foreignRecord}?dry_run=true`, { token: await gamma(), body: { components: 7 } }),
      404,
    );
    for (const method of ['POST', 'PUT'])
      expectErrorShape(
        await call(method, `/v1/templates/${foreignRecord}/channel-campaigns`, { token: await gamma(), body: { channel_campaigns: 'x' } }),
        404,
      );
    // A BSP operator may name any tenant's: its bad body is judged as such
    expectErrorShape(
      await call('POST', `/v1/template/messages/${foreignDid}`, { token: await tokens.bsp(), body: { nonsense: true } }),
      400,
    );
  });
});
