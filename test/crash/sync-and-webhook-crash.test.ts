import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMPLATES_PAGE_SIZE } from '../../lib/adapters/graph/graph-upstream.ts';
import { untilFound } from '../support/until.ts';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';

/**
 * A crash during a sync and during a webhook delivery (issue 23): a stack of the test's own is killed with
 * SIGKILL while the work waits on the upstream or on the receiver, then started again on the same data.
 */
const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any });
const api = (stack: ChildStack, method: string, path: string, body?: unknown) =>
  fetch(`${stack.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(json);

/** Asks until `check` finds something, 90 s at most unless told. */
const wait = <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 90_000) => untilFound(what, check, timeoutMs, 200);

/** A stack on a folder of its own; `restart` kills it (SIGKILL) and starts it again on the same data. */
async function crashableStack(env: Record<string, string>) {
  const folder = mkdtempSync(join(tmpdir(), 'tms-crash-'));
  const stacks: ChildStack[] = [await startChildStack(folder, { ...env, FRESH: 'true' })];
  return {
    current: () => stacks.at(-1) as ChildStack,
    restart: async () => {
      await (stacks.at(-1) as ChildStack).kill();
      stacks.push(await startChildStack(folder, env));
      return stacks.at(-1) as ChildStack;
    },
    dispose: async () => {
      for (const stack of stacks) await stack.kill();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

describe.concurrent('a crash during a sync or a webhook delivery (SIGKILL, then a start on the same data)', () => {
  it('a sync: after the restart it runs again to its end, its run is recorded and its lease is free', async () => {
    // Prepare: a sync whose first WABA's listing hangs 8 s (the probe, limit=1, is not slowed)
    const stacks = await crashableStack({ AUTO_STATUSES: '', GRAPH_API_TIMEOUT_MS: '10000' });
    try {
      const first = stacks.current();
      await fetch(`${first.graphUrl}/_emulator/faults`, {
        method: 'POST',
        body: JSON.stringify({
          path: '/100200300/message_templates',
          method: 'GET',
          query: `limit=${TEMPLATES_PAGE_SIZE}`,
          delayMs: 8_000,
          times: 1,
        }),
      });
      expect((await api(first, 'POST', '/templates/sync-from-meta', {})).status).toBe(200);
      await wait('the sync running', async () =>
        (await api(first, 'GET', '/templates/sync-from-meta')).body.state === 'running' ? true : undefined,
      );
      await new Promise((r) => setTimeout(r, 1_500));
      // Act: the crash while the sync waits on the upstream
      const second = await stacks.restart();
      const finished = await wait('the sync finished', async () => {
        const { body } = await api(second, 'GET', '/templates/sync-from-meta');
        return body.state === 'idle' && body.last_run ? body : undefined;
      });
      const again = await api(second, 'POST', '/templates/sync-from-meta', {});
      // Assess: the run recorded, the lease free for the next one
      expect(finished.last_run).toMatchObject({ result: 'succeeded', finished_at: expect.any(String) });
      expect(again.status).toBe(200);
    } finally {
      await stacks.dispose();
    }
  }, 240_000);

  it('a webhook delivery: the event the receiver never acknowledged is delivered once after the restart', async () => {
    // Prepare: a receiver that leaves its first request unanswered and answers 200 after that, by webhook-id
    const answered: string[] = [];
    const hung: ServerResponse[] = [];
    const receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        if (hung.length === 0) return void hung.push(res);
        answered.push(String(req.headers['webhook-id']));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const stacks = await crashableStack({ AUTO_STATUSES: '', ALLOW_LOCAL_WEBHOOKS: 'true', WEBHOOK_RETRY_BASE_SECONDS: '0' });
    try {
      const first = stacks.current();
      expect((await api(first, 'PUT', '/webhook/config', { url })).status).toBe(200);
      const name = `crash_${Date.now()}`;
      const created = await api(first, 'POST', '/templates/5215550001', {
        name,
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Kept {{1}}', example: { body_text: [['x']] } }],
      });
      expect(created.status).toBe(200);
      await wait('the first delivery attempt', async () => (hung.length > 0 ? true : undefined));
      // Act: the crash while the receiver holds the delivery
      const second = await stacks.restart();
      await wait('a delivery after the restart', async () => (answered.length > 0 ? true : undefined));
      await new Promise((r) => setTimeout(r, 3_000));
      const log = await api(second, 'GET', '/webhook/deliveries');
      // Assess: the event answered once, and the delivery log shows it delivered
      expect(answered).toHaveLength(1);
      expect(JSON.stringify(log.body)).toContain(answered[0]);
    } finally {
      for (const res of hung) res.destroy();
      receiver.closeAllConnections();
      receiver.close();
      await stacks.dispose();
    }
  }, 240_000);
});
