import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { untilFound } from '../support/until.ts';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';

/**
 * A scheduled send through a crash (decisions §22, issue 25): on a stack of the test's own (`npm start` in a
 * child process), two sends are scheduled 45 s ahead and one of them cancelled; the stack is killed with
 * SIGKILL and started again on the same data before their time. The schedule (the local stand-in for
 * EventBridge Scheduler keeps it on disk) and the held jobs survive: the kept send goes out from its time,
 * within a minute, none of it earlier; the cancelled one sends nothing.
 */
const DEMO_NUMBER = { did: '5215550001', id: '110001' };
const AHEAD_MS = 45_000;

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any });
const request = (stack: ChildStack, method: string, path: string, body?: unknown) =>
  fetch(`${stack.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  }).then(json);
const acceptedAt = async (stack: ChildStack, numbers: Set<string>) =>
  (
    (await (await fetch(`${stack.graphUrl}/_emulator/sent?phone_number_id=${DEMO_NUMBER.id}`)).json()) as {
      sent: { accepted_at: number; message: { to: string } }[];
    }
  ).sent
    .filter((m) => numbers.has(m.message.to))
    .map((m) => m.accepted_at);

async function scheduled(stack: ChildStack, batch: number, sendAt: string) {
  const recipients = Array.from({ length: 200 }, (_, i) => ({
    to: `53${batch}${String(i).padStart(6, '0')}`,
    params: { body: [`S-${i}`] },
  }));
  const response = await request(stack, 'POST', `/template/messages/${DEMO_NUMBER.did}`, {
    did: DEMO_NUMBER.did,
    type: 'template',
    channel: 'MSGCHAN',
    template: { name: 'order_update', language: 'en_US' },
    recipients,
    send_at: sendAt,
  });
  expect(response.status).toBe(200);
  expect(response.body.status).toBe('scheduled');
  return { sendId: response.body.send_id as string, numbers: new Set(recipients.map((r) => r.to)) };
}

const wait = <T>(what: string | (() => string), check: () => Promise<T | undefined>, timeoutMs: number) =>
  untilFound(what, check, timeoutMs, 500);

describe('a send scheduled 45 s ahead, through a crash (SIGKILL, then a start on the same data)', () => {
  it(
    'sends nothing before its time and all of it within a minute after; the cancelled one sends nothing',
    async () => {
      // Prepare: two sends scheduled for the same time, the second cancelled
      const folder = mkdtempSync(join(tmpdir(), 'tms-scheduled-'));
      const env = { AUTO_STATUSES: '' };
      const first = await startChildStack(folder, { ...env, FRESH: 'true' });
      let second: ChildStack | undefined;
      try {
        const sendAt = new Date(Math.ceil((Date.now() + AHEAD_MS) / 1000) * 1000).toISOString();
        const kept = await scheduled(first, 1, sendAt);
        const cancelled = await scheduled(first, 2, sendAt);
        const cancel = await request(first, 'POST', `/sends/${cancelled.sendId}/cancel`);
        const before = await request(first, 'GET', `/sends/${kept.sendId}`);
        // DynamoDB Local makes a transaction durable only some time after it answers (docs/dispatch-jobs.md).
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        // Act: the crash, a start on the same data, and the send's time
        await first.kill();
        second = await startChildStack(folder, env);
        const status = await wait(
          'the scheduled send completed',
          async () => {
            const { body } = await request(second as ChildStack, 'GET', `/sends/${kept.sendId}`);
            return body.status === 'completed' ? body : undefined;
          },
          AHEAD_MS + 120_000,
        );
        const other = await wait(
          'the cancelled send settled',
          async () => {
            const { body } = await request(second as ChildStack, 'GET', `/sends/${cancelled.sendId}`);
            return body.pending === 0 ? body : undefined;
          },
          60_000,
        );
        const times = await acceptedAt(second, kept.numbers);
        // Assess
        expect(cancel.status).toBe(202);
        expect(before.body).toMatchObject({ status: 'scheduled', pending: 200, send_at: sendAt });
        expect(status).toMatchObject({ sent: 200, failed: 0 });
        expect(times).toHaveLength(200);
        expect(Math.min(...times)).toBeGreaterThanOrEqual(Date.parse(sendAt));
        expect(Math.max(...times)).toBeLessThanOrEqual(Date.parse(sendAt) + 60_000);
        expect(other).toMatchObject({ status: 'cancelled', sent: 0, cancelled: 200 });
        expect(await acceptedAt(second, cancelled.numbers)).toEqual([]);
      } finally {
        await second?.stop().catch(() => undefined);
        await first.kill();
        rmSync(folder, { recursive: true, force: true });
      }
    },
    5 * 60_000,
  );
});
