import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, token, useStack } from '../support/api.ts';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';
import { demoTemplateAs } from '../support/own-client.ts';
import { waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * The Graph API version as a setting (issue 55 item 7): `npm start` with GRAPH_API_VERSION=v23.0 (a child stack of
 * this file's own) calls Graph at v23.0, which the emulator still speaks, and a send from it settles with the
 * emulator's message id. Client 683, as in test/http/graph-version.test.ts.
 */
const CLIENT = 683;
const WABA = 'w683';
const NUMBER = { did: '52155568301', id: 'p683001' };
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const folder = mkdtempSync(join(tmpdir(), 'tms-graph-version-'));
let stack: ChildStack;

beforeAll(async () => {
  const fixture = join(folder, 'directory.json');
  writeFileSync(
    fixture,
    JSON.stringify({
      clients: [{ client_id: CLIENT, client_name: 'Graph version' }],
      wabas: [waba(WABA, [demoTemplateAs('order_update', { id: 't683' })])],
      channels: [{ wa_id: NUMBER.did, client_id: CLIENT, waba_id: WABA, phone_number_id: NUMBER.id }],
    }),
  );
  stack = await startChildStack(join(folder, 'data'), {
    FIXTURE: fixture,
    FRESH: 'true',
    KEEP_DATA: 'false',
    AUTO_STATUSES: '',
    GRAPH_API_VERSION: 'v23.0',
  });
  useStack(stack);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('GRAPH_API_VERSION set to the old version (issue 55)', () => {
  it('sends at v23.0 and takes the message id from the emulator’s answer', { timeout: 120_000 }, async () => {
    // Prepare
    const to = `52${run}0002`;
    const agent = await token({ clientId: CLIENT, campaigns: [] });
    // Act
    const accepted = await call('POST', `/v1/template/messages/${NUMBER.did}`, {
      token: agent,
      body: {
        did: NUMBER.did,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'order_update', language: 'en_US' },
        recipients: [{ to, params: { body: ['A-1'] } }],
      },
    });
    const sendId = accepted.body.send_id as string;
    const settled = await until(
      async () => (await call('GET', `/v1/sends/${sendId}`, { token: agent })).body,
      (s) => s.pending === 0,
      60_000,
    );
    // Assess: the call named v23.0, and the recipient holds the id the emulator answered
    expect(accepted.status).toBe(200);
    expect(settled).toMatchObject({ sent: 1, failed: 0 });
    const { calls } = await emulator('GET', `calls?path=/${NUMBER.id}/messages`);
    expect(calls.map((c: { method: string; path: string }) => `${c.method} ${c.path}`)).toEqual([`POST /v23.0/${NUMBER.id}/messages`]);
    const { sent } = await emulator('GET', `sent?phone_number_id=${NUMBER.id}&to=${to}`);
    const rows = await call('GET', `/v1/sends/${sendId}/recipients`, { token: agent });
    expect(rows.body.data.map((r: { message_id?: string }) => r.message_id)).toEqual([sent[0].id]);
  });
});
