import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../local/parts/network.ts';
import { ROOT } from '../../local/keys.ts';

const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');

/** `npm start` as a person runs it: it prints the base URL and tokens, serves them, and stops on SIGTERM. */
describe('the start command', () => {
  it('serves GET /v1/client-msg-channels to the printed tokens and shuts down cleanly on SIGTERM', async () => {
    // Prepare
    const port = await freePort();
    const child = spawn(tsx, ['local/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), LOG_LEVEL: 'SILENT' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const started = Date.now();
    while (!out.includes('BSP_CN token') && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 100));
    const lines = out.split('\n');
    const lineAfter = (label: string) => lines[lines.findIndex((l) => l.startsWith(label)) + 1];
    // Act
    const base = /API base URL: (\S+)/.exec(out)?.[1];
    const response = await fetch(`${base}/client-msg-channels`, { headers: { authorization: `Bearer ${lineAfter('Client token')}` } });
    const bsp = await fetch(`${base}/client-msg-channels?client_id=9`, {
      headers: { authorization: `Bearer ${lineAfter('BSP_CN token')}` },
    });
    // Assess
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(base).toBe(`http://127.0.0.1:${port}/v1`);
    expect(response.status).toBe(200);
    expect(bsp.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 90_000);

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
});
