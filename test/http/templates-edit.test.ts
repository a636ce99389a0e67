import { afterEach, describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape, token } from '../support/api.ts';

/**
 * Edits of demo templates: 9101 (client 9, APPROVED, record …3a51, DID 5511990021), 9001 (WABA 100200300,
 * records of client 7 …3a4b and client 8 …3a4c) and 9002 (client 7, record …3a4d).
 */
const GAMMA_RECORD = '65a1b2c3d4e5f60718293a51';
const gamma = () => token({ clientId: 9, campaigns: [51] });
const acme = () => token({ clientId: 7, campaigns: [31] });
const edit = async (did: string, record: string, body: unknown, t?: string) =>
  call('PUT', `/v1/templates/${did}/${record}`, { token: t ?? (await gamma()), body });

afterEach(() => emulator('DELETE', 'faults?path=/9002'));

async function upstreamCalls(path: string) {
  const { calls } = await emulator('GET', 'calls');
  return calls.filter((c: { method: string; path: string }) => c.method === 'POST' && c.path.endsWith(path));
}

describe('PUT /v1/templates/{did}/{messageTemplateId} (spec §6)', () => {
  it('answers changed:false for an edit with no real change and calls no upstream', async () => {
    // Prepare: the same components, spelled differently (key order, case of type, surrounding spaces)
    const before = (await upstreamCalls('/9101')).length;
    const body = {
      components: [{ example: { body_text: [['amanhã']] }, text: ' Sua consulta é {{1}} ', type: 'body' }],
      name: 'renamed_ignored',
    };
    // Act
    const response = await edit('5511990021', GAMMA_RECORD, body);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, changed: false, message: expect.any(String) });
    // The body ends with its variable: decisions §18 adds that warning to every edit answer, a no-change one too.
    expect(response.body.review_warnings?.map((w: { rule: string }) => w.rule)).toEqual(['trailing_variable']);
    expect((await upstreamCalls('/9101')).length).toBe(before);
  });

  it('answers 400 when the category of an APPROVED template would change', async () => {
    const response = await edit('5511990021', GAMMA_RECORD, {
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Sua consulta é {{1}}', example: { body_text: [['amanhã']] } }],
    });
    expect(expectErrorShape(response, 400).details?.[0].path).toBe('category');
  });

  it('answers 400 when the components break the rules', async () => {
    const response = await edit('5511990021', GAMMA_RECORD, {
      components: [{ type: 'BODY', text: 'Hi {{2}}', example: { body_text: [['x']] } }],
    });
    expect(expectErrorShape(response, 400, 'validation_failed').details?.[0].path).toBe('components[0].text');
    expectErrorShape(await edit('5511990021', GAMMA_RECORD, { name: 'only_a_name' }), 400);
    expectErrorShape(await edit('5511990021', GAMMA_RECORD, { components: [], language: 'es', extra: 1 }), 400);
  });

  it('sends a real change upstream without name and language, and every sibling of every client gets it', async () => {
    // Prepare: template 9001 has records for clients 7 and 8
    const components = [{ type: 'BODY', text: 'Order {{1}} has shipped today', example: { body_text: [['A-1']] } }];
    // Act
    const response = await edit('5215550001', '65a1b2c3d4e5f60718293a4b', { components, name: 'other', language: 'fr' }, await acme());
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, changed: true });
    const [call9001] = (await upstreamCalls('/9001')).slice(-1);
    expect(call9001.body).toEqual({ components });
    const state = await emulator('GET', 'state');
    const upstream = state.wabas.flatMap((w: { templates: unknown[] }) => w.templates).find((t: { id: string }) => t.id === '9001');
    expect(upstream).toMatchObject({ name: 'order_update', language: 'en_US', status: 'PENDING', components });
    const bsp = await token({ clientId: 1, bsp: true });
    for (const client of [7, 8]) {
      const entry = (await call('GET', `/v1/templates?client_id=${client}&template_meta_id=9001`, { token: bsp })).body.data[0];
      expect(entry.meta_template).toMatchObject({ status: 'PENDING', components });
    }
  });

  it('passes the upstream’s refusal of an edit (a template not in an editable status) as a 400', async () => {
    // 9001 is PENDING at the upstream after the previous edit; the record still says PENDING too
    const components = [{ type: 'BODY', text: 'Order {{1}} is on its way', example: { body_text: [['A-1']] } }];
    const response = await edit('5215550001', '65a1b2c3d4e5f60718293a4b', { components }, await acme());
    expect(expectErrorShape(response, 400).message).toContain('cannot be edited');
  });

  it('answers 404 for a record of another WABA or an unknown id, and 403 outside the hierarchy', async () => {
    const components = [{ type: 'BODY', text: 'x' }];
    expectErrorShape(await edit('5215550002', '65a1b2c3d4e5f60718293a4b', { components }, await acme()), 404);
    expectErrorShape(await edit('5511990021', 'ffffffffffffffffffffffff', { components }), 404);
    expectErrorShape(await edit('5215550001', '65a1b2c3d4e5f60718293a4b', { components }), 403);
    expectErrorShape(await edit('5511990021', GAMMA_RECORD, { components, client_id: 7 }), 403);
  });

  it('answers 502 when the upstream is unreachable, and leaves the record as it was', async () => {
    await emulator('POST', 'faults', { path: '/9002', status: 503 });
    const components = [{ type: 'BODY', text: 'Pedido {{1}} en camino', example: { body_text: [['A-1']] } }];
    expectErrorShape(await edit('5215550001', '65a1b2c3d4e5f60718293a4d', { components }, await acme()), 502, 'upstream_unavailable');
    const entry = (await call('GET', '/v1/templates?client_id=7&template_meta_id=9002', { token: await acme() })).body.data[0];
    expect(entry.meta_template.components[0].text).toBe('Pedido {{1}} enviado');
  });
});
