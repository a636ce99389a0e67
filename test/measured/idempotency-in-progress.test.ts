import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';
import { until } from '../support/until.ts';

/**
 * An Idempotency-Key's second request while the first still runs: 409 `idempotency_in_progress` (decisions §12),
 * through a stack of this file's own. The shared stack's Graph timeout is 1 s (test/support/global-setup.ts), so a
 * slow template lookup held the first request's key for about 1 s there, and a loaded full run's second request
 * came after it twice. Here the timeout is the deployed kind (15 s) and the lookup is held 8 s: the second request
 * has 8 s to reach the key, which the emulator shows the first holding before it is sent.
 */
const DEMO = { did: '5215550001', waba: '100200300' };
const HELD_MS = 8_000;
const GRAPH_TOKEN = 'local-graph-access-token';

let stack: ChildStack;
const folder = mkdtempSync(join(tmpdir(), 'tms-idem-'));

beforeAll(async () => {
  stack = await startChildStack(folder, { FRESH: 'true', KEEP_DATA: 'false', AUTO_STATUSES: '', GRAPH_API_TIMEOUT_MS: '15000' });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const emulator = async (method: string, path: string, body?: unknown) =>
  (await fetch(`${stack.graphUrl}/_emulator/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  }).then((r) => r.json())) as Record<string, any>;

const send = async (name: string, key: string) => {
  const response = await fetch(`${stack.base}/template/messages/${DEMO.did}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({
      did: DEMO.did,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name, language: 'en_US' },
      recipients: [{ to: '5215512340001' }],
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

describe('Idempotency-Key on sends (decisions §12)', () => {
  it('answers 409 while the first request with the key is still in progress, then the first answer to a retry', async () => {
    // Prepare: a template the client has no record of (looked up upstream), whose lookup is held once
    const name = `slow_${Date.now()}`;
    const created = (await fetch(`${stack.graphUrl}/v23.0/${DEMO.waba}/message_templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${GRAPH_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hello' }] }),
    }).then((r) => r.json())) as { id: string };
    await emulator('POST', `templates/${created.id}/status`, { status: 'APPROVED' });
    await emulator('POST', 'faults', { path: `/${DEMO.waba}/message_templates`, query: `name=${name}`, delayMs: HELD_MS, times: 1 });
    const lookupSeen = async () =>
      (
        (await emulator('GET', `calls?path=${encodeURIComponent(`/${DEMO.waba}/message_templates`)}`)).calls as {
          query: Record<string, string>;
        }[]
      ).some((c) => c.query.name === name);
    // Act: the second request once the emulator holds the first's lookup (the key is claimed before it)
    const first = send(name, 'held-key');
    await until(lookupSeen, (seen) => seen, 30_000);
    const second = await send(name, 'held-key');
    const firstAnswer = await first;
    const retry = await send(name, 'held-key');
    // Assess
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('idempotency_in_progress');
    expect(firstAnswer.status).toBe(200);
    expect(retry.body.send_id).toBe(firstAnswer.body.send_id);
  }, 60_000);
});
