import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';

/**
 * An onboarding accepted before a crash resumes after it (issue 55): its business token, taken for a code Meta
 * accepts once, is in the local vault of the stack's data folder, so the resume after a SIGKILL needs no new code.
 */
const CLIENT = 10;
const emulatorCall = async (stack: ChildStack, path: string, body: unknown) =>
  (await fetch(`${stack.graphUrl}/_emulator/${path}`, { method: 'POST', body: JSON.stringify(body) })).json() as Promise<any>;
const api = async (stack: ChildStack, path: string, body: unknown) => {
  const response = await fetch(`${stack.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.bspToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
};

describe('a crash after an onboarding failed at registration (SIGKILL, then a start on the same data)', () => {
  it('resumes to completed without its code', async () => {
    // Prepare: an onboarding whose registration failed, its code spent
    const folder = mkdtempSync(join(tmpdir(), 'tms-crash-'));
    const stacks: ChildStack[] = [await startChildStack(folder, { AUTO_STATUSES: '', FRESH: 'true' })];
    try {
      const first = stacks[0];
      const signup = await emulatorCall(first, 'embedded-signup', {
        display_phone_number: '+52 1 555 010 0991',
        currency: 'MXN',
        timezone_id: '58',
      });
      await emulatorCall(first, 'faults', { status: 500, times: 1, path: `${signup.phone_number_id}/register` });
      const failed = await api(first, `/clients/${CLIENT}/onboardings`, { ...signup, pin: '123456' });
      expect(failed.body).toMatchObject({ status: 'failed', failed_at: 'register' });
      // Act: the crash, a start on the same data, the resume
      await first.kill();
      stacks.push(await startChildStack(folder, { AUTO_STATUSES: '' }));
      const resumed = await api(stacks[1], `/clients/${CLIENT}/onboardings/${failed.body.onboarding_id}/resume`, {});
      // Assess
      expect(resumed.status).toBe(200);
      expect(resumed.body.status).toBe('completed');
    } finally {
      for (const stack of stacks) await stack.kill();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 240_000);
});
