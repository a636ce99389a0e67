import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATES_PAGE_SIZE } from '#lib/adapters/graph/graph-upstream.ts';
import { call, emulator, expectErrorShape, token } from '../support/api.ts';
import { seedDirectory, template, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/** Client 480 with two WABAs of its own: the second one's listing is slowed so a run can be watched. */
const C = 480;
const SLOW = '/w480b/message_templates';
const templates = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => template(`${prefix}${i}`, `${prefix}_t${i}`));

beforeAll(async () => {
  await seedDirectory({
    clients: [{ client_id: C, client_name: 'Sync Watch' }],
    wabas: [waba('w480a', []), waba('w480b', [])],
    channels: [
      { wa_id: '480001', client_id: C, waba_id: 'w480a' },
      { wa_id: '480002', client_id: C, waba_id: 'w480b' },
    ],
  });
  await emulator('POST', 'wabas', { id: 'w480a', templates: templates('a', 3) });
  await emulator('POST', 'wabas', { id: 'w480b', templates: templates('b', 2) });
});

afterAll(() => emulator('DELETE', `faults?path=${encodeURIComponent(SLOW)}`));

const status = async (query = '') => call('GET', `/v1/templates/sync-from-meta${query}`, { token: await token({ clientId: C }) });

describe('GET /v1/templates/sync-from-meta (decisions §14)', () => {
  it('shows a running sync’s progress while it runs, then idle with the last run’s result', async () => {
    // Prepare: the second WABA's listing hangs 2 s (the probe, limit=1, is not slowed)
    const idle = await status();
    await emulator('POST', 'faults', { path: SLOW, method: 'GET', query: `limit=${TEMPLATES_PAGE_SIZE}`, delayMs: 2000, times: 1 });
    // Act
    const started = await call('POST', '/v1/templates/sync-from-meta', { token: await token({ clientId: C }) });
    const running = await until(status, (r) => r.body.progress?.wabas_done === 1);
    const finished = await until(status, (r) => r.body.state === 'idle' && r.body.last_run !== undefined);
    // Assess
    expect(idle.status).toBe(200);
    expect(idle.body).toEqual({ clientId: C, state: 'idle' });
    expect(started.status).toBe(200);
    expect(running.body).toEqual({
      clientId: C,
      state: 'running',
      started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      progress: { wabas_done: 1, wabas_total: 2, pages: 1, templates_seen: 3, changes: 3 },
    });
    expect(finished.body).toEqual({
      clientId: C,
      state: 'idle',
      last_run: {
        started_at: running.body.started_at,
        finished_at: expect.any(String),
        result: 'succeeded',
        templates_seen: 5,
        changes: 5,
      },
    });
  });

  it('records a failed run with its error and releases the lease at once', async () => {
    // Prepare: the second WABA's listing fails
    await emulator('POST', 'faults', { path: SLOW, method: 'GET', query: `limit=${TEMPLATES_PAGE_SIZE}`, status: 500, times: 10 });
    // Act
    const started = await call('POST', '/v1/templates/sync-from-meta', { token: await token({ clientId: C }) });
    const finished = await until(
      status,
      (r) => r.body.state === 'idle' && r.body.last_run?.started_at !== undefined && r.body.last_run.result === 'failed',
    );
    await emulator('DELETE', `faults?path=${encodeURIComponent(SLOW)}`);
    const again = await call('POST', '/v1/templates/sync-from-meta', { token: await token({ clientId: C }) });
    // Assess
    expect(started.status).toBe(200);
    expect(finished.body.last_run).toMatchObject({ result: 'failed', error: expect.stringContaining('WABA w480b') });
    expect(again.status).toBe(200);
  });

  it('answers 403 for another client without BSP_CN, 200 with it, and 400 for a bad client_id', async () => {
    // Act
    const other = await call('GET', '/v1/templates/sync-from-meta?client_id=7', { token: await token({ clientId: C }) });
    const bsp = await call('GET', `/v1/templates/sync-from-meta?client_id=${C}`, { token: await token({ clientId: 7, bsp: true }) });
    const bad = await status('?client_id=abc');
    const anonymous = await call('GET', '/v1/templates/sync-from-meta');
    // Assess
    expectErrorShape(other, 403, 'forbidden');
    expect(bsp.status).toBe(200);
    expect(bsp.body.clientId).toBe(C);
    expectErrorShape(bad, 400);
    expectErrorShape(anonymous, 401);
  });
});
