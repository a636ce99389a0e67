import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../local/keys.ts';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';

/**
 * The business token and the PIN never reach a log line (issue 55, decisions §34): `npm start`'s stack, logging
 * everything (LOG_LEVEL=DEBUG, JSON lines), onboards a WABA of two numbers for client 10's admin, one registration
 * refused for a wrong PIN and resumed with the right one. Every line it printed is searched for the code, the PIN
 * and a business token (the emulator mints them `EAAB…`).
 */
const PIN = '731592';
const WRONG_PIN = '208461';
let stack: ChildStack;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tms-onboarding-logs-'));
  stack = await startChildStack(dataDir, { FRESH: 'true', KEEP_DATA: 'false', LOG_LEVEL: 'DEBUG', LOG_FORMAT: 'json' });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = async (path: string, body: unknown, token: string) => {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

describe('onboarding’s log lines (issue 55)', () => {
  it('carry no code, business token or PIN, through a failed registration and its resume', async () => {
    // Prepare: the popup, a WABA of two numbers with the PIN
    const popup = (await (
      await fetch(`${stack.graphUrl}/_emulator/embedded-signup`, {
        method: 'POST',
        body: JSON.stringify({ pin: PIN, currency: 'USD', numbers: [{ display_phone_number: '+1 555 010 7302', pin: PIN }] }),
      })
    ).json()) as { code: string; waba_id: string; phone_number_id: string };
    const admin = await mintToken({ clientId: 10, campaigns: [], role: 'admin', sub: 'logs-admin' });
    // Act: a wrong PIN first (Meta's 133005), then the resume with the right one
    const failed = await post('/v1/clients/10/onboardings', { ...popup, pin: WRONG_PIN }, admin);
    const resumed = await post(`/v1/clients/10/onboardings/${failed.body.onboarding_id}/resume`, { pin: PIN }, admin);
    await new Promise((r) => setTimeout(r, 500));
    // Assess: it went through the steps that handle the secrets
    expect(failed.body).toMatchObject({ status: 'failed', failed_at: 'register' });
    expect(resumed.body.status).toBe('completed');
    const lines = `${stack.out}\n${stack.log}`.split('\n').filter((line) => line.trim().length > 0);
    expect(lines.filter((line) => line.includes(failed.body.onboarding_id)).length).toBeGreaterThan(0);
    // Assess: no line carries them
    expect(lines.filter((line) => line.includes(popup.code))).toEqual([]);
    expect(lines.filter((line) => line.includes(PIN) || line.includes(WRONG_PIN))).toEqual([]);
    expect(lines.filter((line) => /EAAB[\w-]{20,}/.test(line))).toEqual([]);
  });
});
