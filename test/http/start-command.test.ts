import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../local/keys.ts';
import { routes } from '#lib/manifest/routes.ts';
import { startChildStack } from '../support/child-stack.ts';

const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');

/** `npm start` as a person runs it: it prints the base URL and tokens, serves them, and stops on SIGTERM. */
describe('the start command', () => {
  it('npm run token prints one JWT alone on stdout', () => {
    const result = spawnSync(tsx, ['local/token.ts', '--client-id', '7', '--bsp', '--campaigns', '1,2', '--sub', 'alice'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$/);
    const payload = JSON.parse(Buffer.from(result.stdout.split('.')[1], 'base64url').toString());
    expect(payload).toMatchObject({ client_id: 7, permissions: ['BSP_CN'], campaigns: [1, 2], sub: 'alice' });
    expect(spawnSync(tsx, ['local/token.ts'], { cwd: ROOT, encoding: 'utf8' }).status).toBe(2);
  });

  it('serves the printed tokens, logs each request under its own function, stops cleanly and keeps what it accepted', async () => {
    // Prepare: a first run from the fixture, in a data folder of this test's own, its logs as JSON lines
    const dataDir = mkdtempSync(join(tmpdir(), 'tms-data-'));
    try {
      const first = await startChildStack(dataDir, { FRESH: 'true', LOG_LEVEL: 'INFO', LOG_FORMAT: 'json' });
      expect(first.out).toContain('Template Messaging Service ready in');
      expect(first.base).toBe(`http://127.0.0.1:${first.port}/v1`);
      const auth = { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' };
      // Act: the printed tokens
      const channels = await fetch(`${first.base}/client-msg-channels`, { headers: auth });
      const bsp = await fetch(`${first.base}/client-msg-channels?client_id=9`, { headers: { authorization: `Bearer ${first.bspToken}` } });
      // Act: 30 requests at once on six routes, so their invocations overlap in the one process (decisions §21)
      const concurrent = [
        ['GET', '/client-msg-channels'],
        ['GET', '/templates?size=5'],
        ['GET', '/templates/sync-from-meta'],
        ['PATCH', '/templates/status'],
        ['POST', '/meta/webhooks'],
        ['GET', '/sends'],
      ] as const;
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => concurrent)
          .flat()
          .map(([method, path]) =>
            fetch(`${first.base}${path}`, {
              method,
              headers: auth,
              body: method === 'GET' ? undefined : JSON.stringify({ templates: [] }),
            }),
          ),
      );
      // Assess: the tokens work; every request line names its own route's function, and each function only its own
      expect([channels.status, bsp.status]).toEqual([200, 200]);
      expect(answers.every((answer) => answer.status < 500)).toBe(true);
      const functionOf = new Map(routes.map((route) => [`${route.method} ${route.path}`, route.name]));
      const requestLines = first.out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { message: string; route: string; function_name: string; request_id: string })
        .filter((line) => line.message === 'request');
      const named = requestLines.map((line) => [line.route, line.function_name]);
      expect(named.length).toBeGreaterThanOrEqual(32);
      expect(named.filter(([route, fn]) => functionOf.get(route) !== fn)).toEqual([]);
      const linesOf = (name: string) => requestLines.filter((line) => line.function_name === name).length;
      for (const name of ['GetSyncStatus', 'ChangeTemplateStatus', 'ReceiveMetaWebhook', 'ListSends', 'ListTemplates'])
        expect(linesOf(name), name).toBe(5);
      expect(new Set(requestLines.map((line) => line.request_id)).size).toBe(requestLines.length);
      const name = `kept_${Date.now()}`;
      // A receiver that is never reachable keeps the template's event in the queue, being retried.
      const config = await fetch(`${first.base}/webhook/config`, {
        method: 'PUT',
        headers: auth,
        body: JSON.stringify({ url: 'https://hooks.example.com/in' }),
      });
      const created = await fetch(`${first.base}/templates/5215550001`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          name,
          language: 'en_US',
          category: 'UTILITY',
          components: [{ type: 'BODY', text: 'Kept {{1}}', example: { body_text: [['x']] } }],
        }),
      });
      expect([config.status, created.status]).toEqual([200, 200]);
      await new Promise((r) => setTimeout(r, 2_500));
      // Act: stop, start again on the same folder, logging for a terminal
      const firstLog = await first.stop();
      const second = await startChildStack(dataDir, { LOG_LEVEL: 'INFO', LOG_FORMAT: 'pretty' });
      const listed = (await (await fetch(`${second.base}/templates?name=${name}`, { headers: auth })).json()) as { data: unknown[] };
      const kept = await fetch(`${second.base}/webhook/config`, { headers: auth });
      const upstream = (await (await fetch(`${second.graphUrl}/_emulator/state`)).json()) as { wabas: { templates: { name: string }[] }[] };
      const secondLog = await second.stop();
      // Assess: one short line per request on the terminal format
      expect(second.out).toMatch(/^\d\d:\d\d:\d\d\.\d{3} 200 GET \/v1\/templates \d+ ms ListTemplates [0-9a-f]{8}$/m);
      expect(second.out).toMatch(/^\d\d:\d\d:\d\d\.\d{3} 200 GET \/v1\/webhook\/config \d+ ms GetWebhookConfig [0-9a-f]{8}$/m);
      expect(second.out.split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
      // Assess: what the first run accepted
      expect(listed.data).toHaveLength(1);
      expect(kept.status).toBe(200);
      expect(upstream.wabas.flatMap((w) => w.templates).some((t) => t.name === name)).toBe(true);
      expect(Number(/Queued messages kept: (\d+)/.exec(firstLog)?.[1])).toBeGreaterThan(0);
      expect(Number(/Queued messages restored: (\d+)/.exec(secondLog)?.[1])).toBeGreaterThan(0);
      expect(secondLog).toContain('Kept data in');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
