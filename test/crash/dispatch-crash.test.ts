import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { BLOCK, IN_FLIGHT, MARK_STEP } from '#lib/domain/sends/dispatch/tuning.ts';
import { untilFound } from '../support/until.ts';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';

/**
 * Nothing accepted is lost in a crash (issue 23): a stack of the test's own (`npm start` in a child process,
 * its data in a folder of the test's own) is killed with SIGKILL, with its DynamoDB Local, in the middle of
 * its work, and started again on the same data. The queues' journal and the emulator's keep what they had
 * acknowledged; the dispatcher takes up the job again once the dead invocation's claims ran out.
 */
const DEMO_NUMBER = { did: '5215550001', id: '110001' };
/**
 * The dispatcher's time and its claims' margin, shortened by settings (not waited out): a dead invocation's
 * claims end 17 s after it took them, not 80 s. Its message timeout is shortened with them, since an invocation
 * stops taking blocks that long (and 5 s) before its time is up.
 */
const SHORT_LEASES = { DISPATCH_TIMEOUT_SECONDS: '15', DISPATCH_LEASE_MARGIN_MS: '2000', GRAPH_MESSAGE_TIMEOUT_MS: '3000' };
/**
 * What a crash may lose (issue 33), block by block (a block is one claim, BLOCK positions from the job's first):
 * the launches since the dead invocation's last record of the block (it records every MARK_STEP positions,
 * begun half a step early: at most 1.5 steps launched past it) and the answers that record still awaited. Those
 * are bounded by the service, not the machine: an invocation awaits at most IN_FLIGHT answers at once, across
 * its blocks. And at most the two blocks one invocation holds (the one sending and the next, claimed beside it),
 * not every block it held (180 before). A bound of 3 steps a block assumed quick answers and failed under load
 * at 43 (the answers a loaded machine had not yet given); the machine's speed moves the count within this bound.
 */
const LAUNCHED_PAST_A_RECORD = 1.5 * MARK_STEP;
const BLOCKS_LOST_AT_MOST = 2;
const LOST_A_BLOCK_AT_MOST = LAUNCHED_PAST_A_RECORD + IN_FLIGHT;
const LOST_AT_MOST = BLOCKS_LOST_AT_MOST * LAUNCHED_PAST_A_RECORD + IN_FLIGHT;
const RESTART_BOUND_MS = 5 * 60_000;

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any });
const get = (stack: ChildStack, path: string) =>
  fetch(`${stack.base}${path}`, { headers: { authorization: `Bearer ${stack.token}` } }).then(json);
/** The send's failed recipients, each with its error (pages of 100). */
async function failedRecipients(stack: ChildStack, sendId: string) {
  const failed: { to: string; error: { code: string; title: string } }[] = [];
  for (let page = 1; ; page++) {
    const { body } = await get(stack, `/sends/${sendId}/recipients?status=failed&size=100&page=${page}`);
    failed.push(...body.data);
    if (body.data.length < 100) return failed;
  }
}
/** A block the dead invocation held, settled by the next that met its claim (lib/domain/sends/ports.ts LOST_OUTCOME). */
const LOST_TITLE = 'The dispatcher stopped before it learned the outcome';
const sentAtEmulator = async (stack: ChildStack) =>
  (
    (await (await fetch(`${stack.graphUrl}/_emulator/sent?phone_number_id=${DEMO_NUMBER.id}`)).json()) as {
      sent: { message: { to: string } }[];
    }
  ).sent;

async function sendOfThousand(stack: ChildStack, batch: number) {
  const recipients = Array.from({ length: 1000 }, (_, i) => ({
    to: `52${batch}${String(i).padStart(6, '0')}`,
    params: { body: [`P-${i}`] },
  }));
  const response = await fetch(`${stack.base}/template/messages/${DEMO_NUMBER.did}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      did: DEMO_NUMBER.did,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: 'order_update', language: 'en_US' },
      recipients,
    }),
  }).then(json);
  expect(response.status).toBe(200);
  return response.body.send_id as string;
}

/** What a stack said of its parts as it started (where its DynamoDB is, how many queued messages came back). */
const startLines = (stack: ChildStack) =>
  stack.log
    .split('\n')
    .filter((line) => line && !line.startsWith('{') && !line.includes('Warning'))
    .join(' | ');

const wait = <T>(what: string | (() => string), check: () => Promise<T | undefined>, timeoutMs: number) =>
  untilFound(what, check, timeoutMs, 250);

describe.concurrent('a crash during a 1,000-recipient dispatch (SIGKILL, then a start on the same data)', () => {
  it.each([
    ['before any message went', 0],
    ['after about 300 messages', 300],
    ['after about 900 messages', 900],
  ])(
    '%s: the send completes within 5 minutes of the restart, each recipient once at most, the rest outcome_unknown',
    async (_when, killAfter) => {
      // Prepare: a stack of this test's own, no statuses (only the dispatch is under test)
      const folder = mkdtempSync(join(tmpdir(), 'tms-crash-'));
      const env = { AUTO_STATUSES: '', ...SHORT_LEASES };
      const first = await startChildStack(folder, { ...env, FRESH: 'true' });
      let second: ChildStack | undefined;
      try {
        const sendId = await sendOfThousand(first, killAfter / 100 + 1);
        if (killAfter > 0)
          await wait(
            () => 'messages sent',
            async () => ((await sentAtEmulator(first)).length >= killAfter ? true : undefined),
            120_000,
          );
        // DynamoDB Local makes a transaction durable only some time after it answers (a SIGKILL at once lost 20 of
        // 40 transactional items, after 300 ms none; PutItem and BatchWriteItem lose nothing): a crash that soon
        // would test the stand-in, not the service, whose DynamoDB keeps what it answered (docs/dispatch-jobs.md).
        if (killAfter === 0) await new Promise((resolve) => setTimeout(resolve, 1_000));
        // Act: the crash, then a start on the same data
        await first.kill();
        second = await startChildStack(folder, env);
        const restarted = Date.now();
        let last: unknown;
        const status = await wait(
          () => `the send completed (last seen ${JSON.stringify(last)}; the restart said: ${startLines(second as ChildStack)})`,
          async () => {
            const { body } = await get(second as ChildStack, `/sends/${sendId}`);
            last = body;
            return body.status === 'completed' ? body : undefined;
          },
          RESTART_BOUND_MS,
        );
        const sent = await sentAtEmulator(second);
        const failed = await failedRecipients(second, sendId);
        // Assess: complete, within the bound; every recipient once at most; at most the dead invocation's launches
        // since its last record lost (outcome_unknown), the rest sent. A message whose answer took longer than its
        // timeout on this loaded machine is outcome_unknown too, with its own title: the machine's speed, not the crash.
        expect(Date.now() - restarted).toBeLessThan(RESTART_BOUND_MS);
        expect(status.sent + status.failed).toBe(1000);
        expect(failed).toHaveLength(status.failed);
        const lostOnes = failed.filter((r) => r.error.title === LOST_TITLE);
        const lost = lostOnes.length;
        // One job of 1,000 (its first position 0): a recipient's block is its position (the number's last 6 digits) over BLOCK
        const byBlock: Record<number, number> = {};
        for (const { to } of lostOnes) {
          const block = Math.floor(Number(to.slice(-6)) / BLOCK);
          byBlock[block] = (byBlock[block] ?? 0) + 1;
        }
        console.info(
          `dispatch crash ${_when}: ${lost} lost (by block ${JSON.stringify(byBlock)}), ${failed.length - lost} without an answer in time, ${status.sent} sent`,
        );
        expect(Object.keys(byBlock).length).toBeLessThanOrEqual(BLOCKS_LOST_AT_MOST);
        for (const count of Object.values(byBlock)) expect(count).toBeLessThanOrEqual(LOST_A_BLOCK_AT_MOST);
        expect(lost).toBeLessThanOrEqual(LOST_AT_MOST);
        const recipients = sent.map((m) => m.message.to);
        expect(new Set(recipients).size).toBe(recipients.length);
        expect(recipients.length).toBeGreaterThanOrEqual(status.sent);
        expect(recipients.length).toBeLessThanOrEqual(status.sent + status.failed);
        expect((status.errors as { code: string }[]).filter((e) => e.code !== 'outcome_unknown')).toEqual([]);
        // The client's month across the crash (decisions §27): each sent recipient still reserves its part until its
        // statuses come (none here), each one settled failed gave its part back, none twice and none lost
        const { body: budget } = await get(second, '/clients/7/budget');
        const part = rateCards.priceMicros('Mexico', 'utility', status.created_at.slice(0, 10));
        expect(Math.round(budget.reserved * 1e6)).toBe(status.sent * part);
        expect(budget.spent).toBe(0);
      } finally {
        await second?.stop().catch(() => undefined);
        await first.kill();
        rmSync(folder, { recursive: true, force: true });
      }
    },
    8 * 60_000,
  );
});
