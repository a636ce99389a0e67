import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';
import { untilFound } from '../support/until.ts';

/**
 * A status acknowledged to Meta survives a crash (issue 54, decisions §16): the statuses' stream keeps every record
 * it accepted in its journal before the intake answers, and a start puts back what its worker had not applied. A
 * stack of the test's own runs without the statuses' worker, takes Meta's statuses, is killed with SIGKILL, and is
 * started again on the same data, with its worker.
 */
const DEMO = { did: '5215550001', numberId: '110001' };
const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any });
const api = (stack: ChildStack, method: string, path: string, body?: unknown) =>
  fetch(`${stack.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(json);
const emulator = (stack: ChildStack, method: string, path: string, body?: unknown) =>
  fetch(`${stack.graphUrl}/_emulator/${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) }).then(json);
const wait = <T>(what: string, check: () => Promise<T | undefined>) => untilFound(what, check, 120_000, 250);

describe('a crash with Meta’s statuses on their stream (SIGKILL, then a start on the same data)', () => {
  it('applies after the restart every status the intake acknowledged before it, each counted once', async () => {
    // Prepare: a stack whose statuses' worker does not run, Meta reporting nothing by itself
    const folder = mkdtempSync(join(tmpdir(), 'tms-crash-statuses-'));
    const stacks: ChildStack[] = [];
    try {
      stacks.push(await startChildStack(folder, { FRESH: 'true', AUTO_STATUSES: '', SKIP_WORKERS: 'ApplyMetaStatuses' }));
      const first = stacks[0];
      const recipients = [0, 1, 2].map((i) => ({ to: `52155599${String(i).padStart(5, '0')}`, params: { body: [`C-${i}`] } }));
      const sent = await api(first, 'POST', `/template/messages/${DEMO.did}`, {
        did: DEMO.did,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'order_update', language: 'en_US' },
        recipients,
      });
      expect(sent.status).toBe(200);
      const sendId = sent.body.send_id as string;
      await wait('the send sent', async () => ((await api(first, 'GET', `/sends/${sendId}`)).body.sent === 3 ? true : undefined));
      const messages = (await emulator(first, 'GET', `sent?phone_number_id=${DEMO.numberId}`)).body.sent as {
        id: string;
        message: { to: string };
      }[];
      const ours = messages.filter((m) => recipients.some((r) => m.message.to.replace(/^\+/, '') === r.to));
      for (const { id } of ours) await emulator(first, 'POST', `messages/${encodeURIComponent(id)}/status`, { status: 'delivered' });
      // Meta's three POSTs answered 200: the statuses are acknowledged, not yet applied
      const answered = await wait('Meta’s POSTs answered', async () => {
        const { notifications } = (await emulator(first, 'GET', 'notifications')).body as { notifications: { status?: number }[] };
        const done = notifications.filter((n) => n.status === 200);
        return done.length >= 3 ? done : undefined;
      });
      const before = (await api(first, 'GET', `/sends/${sendId}`)).body;
      // Act: the crash, and a start on the same data with the worker
      await first.kill();
      stacks.push(await startChildStack(folder, { AUTO_STATUSES: '' }));
      const second = stacks[1];
      const after = await wait('the statuses applied', async () => {
        const status = (await api(second, 'GET', `/sends/${sendId}`)).body;
        return status.delivered === 3 ? status : undefined;
      });
      // Assess: none applied before the crash, all three after it, once each
      expect(ours).toHaveLength(3);
      expect(answered.length).toBeGreaterThanOrEqual(3);
      expect(before.delivered).toBe(0);
      expect(second.log).toMatch(/statuses on their stream: [1-9]/);
      expect(after).toMatchObject({ sent: 3, delivered: 3 });
    } finally {
      for (const stack of stacks) await stack.kill();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 300_000);
});
