import { afterEach, describe, expect, it } from 'vitest';
import { apiUrl, call, emulator, expectErrorShape, graphUrl, token } from '../support/api.ts';
import { EMULATOR_TOKEN } from '../../local/standins/graph/emulator.ts';
import { seedDirectory } from '../support/seed.ts';
import { keys, SORT } from '#lib/adapters/dynamo/table.ts';
import { TEMPLATES_PAGE_SIZE } from '#lib/adapters/graph/graph-upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * Sync of client 9 (WABA 100200400) and client 10 (WABA 100200500). Upstream changes are made on the
 * emulator directly, as if someone used Meta's own tools.
 */
const gamma = () => token({ clientId: 9, campaigns: [51], sub: 'gina' });
const delta = () => token({ clientId: 10, campaigns: [1], sub: 'dan' });
const bsp = () => token({ clientId: 1, bsp: true });

afterEach(() => emulator('DELETE', 'faults?path=/100200500/message_templates&method=GET'));

async function graph(method: string, path: string, body?: unknown) {
  const response = await fetch(`${graphUrl()}/v23.0/${path}`, {
    method,
    headers: { authorization: `Bearer ${EMULATOR_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json() as Promise<any>;
}

async function listing(client: number, query: string) {
  return (await call('GET', `/v1/templates?client_id=${client}&${query}`, { token: await bsp() })).body;
}

/** True when no sync lease of the client is stored (its sync has ended). */
async function leaseFree(clientId: number) {
  await seedDirectory({}); // points this worker's DynamoDB client at the stack's table
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const result = await table.client.send(
    new GetCommand({ TableName: table.name, Key: { pk: keys.client(clientId), sk: SORT.syncLease }, ConsistentRead: true }),
  );
  return result.Item === undefined;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('POST /v1/templates/sync-from-meta (spec §9, decisions §4)', () => {
  it('answers started, then brings upstream changes in: new templates get a placeholder, reviews update status, gone ones are marked deleted', async () => {
    // Prepare: upstream gains a template, approves another, loses a third
    const suffix = Math.random().toString(36).slice(2, 8);
    const made = await graph('POST', '100200400/message_templates', {
      name: `outside_${suffix}`,
      language: 'pt_BR',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Olá' }],
    });
    const created = await call('POST', '/v1/templates/5511990021', {
      token: await gamma(),
      body: { name: `review_${suffix}`, language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hello' }] },
    });
    await emulator('POST', `templates/${created.body.id}/status`, { status: 'APPROVED' });
    const doomed = await call('POST', '/v1/templates/5511990021', {
      token: await gamma(),
      body: { name: `doomed_${suffix}`, language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Bye' }] },
    });
    await graph('DELETE', `100200400/message_templates?name=doomed_${suffix}`);
    // Act
    const started = await call('POST', '/v1/templates/sync-from-meta', { token: await gamma() });
    // Assess
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ status: 'started', message: expect.any(String), clientId: 9 });
    await eventually(async () => (await listing(9, `name=doomed_${suffix}&deleted=true`)).total === 1);
    const outside = await listing(9, `name=outside_${suffix}&campaign_name=Unassigned`);
    expect(outside.data).toHaveLength(1);
    expect(outside.data[0].meta_template).toMatchObject({ id: made.id, status: 'PENDING' });
    expect((await listing(9, `name=review_${suffix}`)).data[0].meta_template.status).toBe('APPROVED');
    expect((await listing(9, `name=doomed_${suffix}`)).total).toBe(0);
    expect((await listing(9, `name=doomed_${suffix}&deleted=true`)).data[0].meta_template.id).toBe(doomed.body.id);
    const statusChanges = async () => {
      const { routed } = (await (await fetch(`${apiUrl()}/_local/events`)).json()) as { routed: { event: any }[] };
      return routed.filter(
        (r) => r.event['detail-type'] === 'template.status_changed' && r.event.detail.data.meta_template.id === created.body.id,
      );
    };
    // Events are published when the sync ends, just after the records are written
    await eventually(async () => (await statusChanges()).length > 0);
    // One event (by its id; a relay running at the same moment may publish it again with the same id)
    const changes = await statusChanges();
    expect(new Set(changes.map((c) => c.event.detail.id)).size).toBe(1);
    expect(changes[0].event.detail.data.meta_template.status).toBe('APPROVED');
    // The lease is given back when the sync ends, and a second sync changes nothing (idempotent)
    await eventually(async () => (await call('POST', '/v1/templates/sync-from-meta', { token: await gamma() })).status === 200);
    await eventually(async () => (await call('POST', '/v1/templates/sync-from-meta', { token: await gamma() })).status === 200);
    expect((await listing(9, `name=outside_${suffix}`)).data).toHaveLength(1);
  });

  it('answers 409 while a sync of the client runs', async () => {
    // Prepare: a slow upstream keeps the first sync's worker busy. Only the worker's paging is slowed, not the
    // probe each POST makes first: a slowed probe let the worker finish (and free the lease) while the second
    // POST was still probing, so the second POST could win the lease.
    await emulator('POST', 'faults', {
      path: '/100200500/message_templates',
      method: 'GET',
      query: `limit=${TEMPLATES_PAGE_SIZE}`,
      delayMs: 1500,
      times: 3,
    });
    const first = call('POST', '/v1/templates/sync-from-meta', { token: await delta(), body: {} });
    const firstResponse = await first;
    // Act
    const second = await call('POST', '/v1/templates/sync-from-meta', { token: await delta(), body: {} });
    // Assess
    expect(firstResponse.status).toBe(200);
    const error = expectErrorShape(second, 409, 'conflict');
    expect(error.message).toBe('A synchronization is already in progress');
  });

  it('answers 403 for another client without BSP_CN, and starts it with BSP_CN', async () => {
    expectErrorShape(
      await call('POST', '/v1/templates/sync-from-meta', { token: await gamma(), body: { client_id: 8 } }),
      403,
      'forbidden',
    );
    const response = await call('POST', '/v1/templates/sync-from-meta', { token: await bsp(), body: { client_id: 8 } });
    expect(response.body).toMatchObject({ status: 'started', clientId: 8 });
  });

  it('answers 400 for a bad body', async () => {
    expectErrorShape(await call('POST', '/v1/templates/sync-from-meta', { token: await gamma(), body: { client_id: 'nine' } }), 400);
    expectErrorShape(await call('POST', '/v1/templates/sync-from-meta', { token: await gamma(), body: { force: true } }), 400);
  });

  it('answers 502 when the upstream is unreachable, and takes no lease', async () => {
    await eventually(() => leaseFree(10)); // the slow sync of the 409 test has ended
    await emulator('POST', 'faults', { path: '/100200500/message_templates', method: 'GET', status: 503 });
    expectErrorShape(await call('POST', '/v1/templates/sync-from-meta', { token: await delta(), body: {} }), 502, 'upstream_unavailable');
    await emulator('DELETE', 'faults?path=/100200500/message_templates&method=GET');
    expect((await call('POST', '/v1/templates/sync-from-meta', { token: await delta() })).status).toBe(200);
  });
});
