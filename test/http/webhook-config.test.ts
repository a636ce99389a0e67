import { describe, expect, it } from 'vitest';
import { call, expectErrorShape, token, tokens } from '../support/api.ts';

const put = (body: unknown, t: string) => call('PUT', '/v1/webhook/config', { token: t, body });
const get = (query: string, t: string) => call('GET', `/v1/webhook/config${query}`, { token: t });

describe('PUT and GET /v1/webhook/config (spec §11–12, decisions §6)', () => {
  it('creates with active true by default, returns a signing secret, and GET returns the same', async () => {
    // Prepare: client 21 has no configuration yet
    const t = await token({ clientId: 21 });
    // Act
    const created = await put({ url: 'https://hooks.example.com/acme' }, t);
    // Assess
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ client_id: 21, url: 'https://hooks.example.com/acme', active: true });
    expect(created.body.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await get('', t)).body).toEqual(created.body);
  });

  it('updates url and active, keeps the secret, and leaves active unchanged when omitted', async () => {
    const t = await token({ clientId: 22 });
    const first = await put({ url: 'https://hooks.example.com/one' }, t);
    const disabled = await put({ url: 'https://hooks.example.com/two', active: false }, t);
    expect(disabled.body).toMatchObject({ url: 'https://hooks.example.com/two', active: false });
    expect(disabled.body.signing_secret).toBe(first.body.signing_secret);
    const again = await put({ url: 'https://hooks.example.com/three' }, t);
    expect(again.body.active).toBe(false);
  });

  it('answers 404 when the client has no configuration', async () => {
    const body = expectErrorShape(await get('', await token({ clientId: 23 })), 404, 'not_found');
    expect(body.message).toContain('23');
  });

  it('lets BSP_CN set and read another client’s configuration', async () => {
    const bsp = await tokens.bsp();
    const saved = await put({ url: 'https://hooks.example.com/beta', client_id: 24 }, bsp);
    expect(saved.body.client_id).toBe(24);
    expect((await get('?client_id=24', bsp)).body.url).toBe('https://hooks.example.com/beta');
    expect((await get('', await token({ clientId: 24 }))).body.url).toBe('https://hooks.example.com/beta');
  });

  it('refuses cross-client PUT and GET without BSP_CN with 403', async () => {
    const t = await token({ clientId: 25 });
    expectErrorShape(await put({ url: 'https://hooks.example.com/x', client_id: 26 }, t), 403, 'forbidden');
    expectErrorShape(await get('?client_id=26', t), 403, 'forbidden');
  });

  it('answers 400 when url is missing', async () => {
    const body = expectErrorShape(await put({ active: true }, await token({ clientId: 27 })), 400, 'validation_failed');
    expect(body.message).toBe('url is required');
  });

  it.each([{ client_id: 'seven' }, { client_id: 0 }, { client_id: 1.5 }])('PUT answers 400 for client_id %o', async (bad) => {
    const body = expectErrorShape(await put({ url: 'https://hooks.example.com/x', ...bad }, await tokens.bsp()), 400);
    expect(body.details?.[0].path).toBe('client_id');
  });

  it.each(['seven', '-1', '0', '1e3'])('GET answers 400 for client_id=%s', async (bad) => {
    const body = expectErrorShape(await get(`?client_id=${bad}`, await tokens.bsp()), 400, 'validation_failed');
    expect(body.message).toBe(`invalid client_id: ${bad}`);
  });

  it('refuses unknown body fields, malformed JSON and a non-boolean active with 400', async () => {
    const t = await token({ clientId: 28 });
    const unknown = expectErrorShape(await put({ url: 'https://hooks.example.com/x', secret: 'x' }, t), 400);
    expect(unknown.details).toEqual([{ path: 'secret', message: 'Unknown field' }]);
    expectErrorShape(
      await call('PUT', '/v1/webhook/config', { token: t, rawBody: '{"url":', headers: { 'content-type': 'application/json' } }),
      400,
    );
    expectErrorShape(await put({ url: 'https://hooks.example.com/x', active: 'yes' }, t), 400);
    expectErrorShape(await put([], t), 400);
    expectErrorShape(await put('https://hooks.example.com', t), 400);
  });

  it.each(['http://hooks.example.com/plain', 'ftp://hooks.example.com/', 'not a url', 'https://user:pass@hooks.example.com/'])(
    'refuses %s with 400',
    async (url) => {
      expectErrorShape(await put({ url }, await token({ clientId: 29 })), 400, 'validation_failed');
    },
  );

  it.each([
    'https://127.0.0.1/hook',
    'https://2130706433/hook',
    'https://0x7f000001/hook',
    'https://0177.0.0.1/hook',
    'https://0x7f.1/hook',
    'https://127.1/hook',
    'https://10.1.2.3/',
    'https://172.16.0.5/',
    'https://192.168.1.10/',
    'https://169.254.169.254/latest/meta-data/',
    'https://0.0.0.0/',
    'https://100.64.0.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://[fe80::1]/',
    'https://[fd00::1]/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'https://[2002:7f00:1::1]/',
    'https://localhost/',
    'https://api.localhost/',
    'https://LOCALHOST./',
    'https://metadata.google.internal/',
    'https://intranet/',
  ])('refuses the private, loopback or link-local address %s with 400', async (url) => {
    const body = expectErrorShape(await put({ url }, await token({ clientId: 30 })), 400, 'validation_failed');
    expect(body.details?.[0].path).toBe('url');
  });

  it('accepts a public IP literal', async () => {
    const response = await put({ url: 'https://93.184.216.34/hook' }, await token({ clientId: 31 }));
    expect(response.status).toBe(200);
  });
});
