import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peakSecond } from '../support/accept-times.ts';
import { call, emulator, token, useStack } from '../support/api.ts';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';
import { template, waba } from '../support/seed.ts';
import { untilFound } from '../support/until.ts';

/**
 * A number shared by its sends (issue 44), through a stack of this file's own (`npm start` in a child process) at
 * production rate: the number at its STANDARD level (80 a second, no MESSAGES_PER_SECOND cap). A send of 3 beside
 * a send of 10,000 of the same category on the same number goes within 2 s of the number's time after its answer
 * (issue 44 measured 14.0 s before the number's slots went round its sends): at most 2 s of the number's pace of
 * the big send launched between its answer and its last launch. What the service controls is that order, not the
 * wall clock: on a loaded machine the big send slows with it (a 2 s wall-clock bound failed once at 2,152 ms).
 * The wall-clock time is logged, not asserted.
 */
const CLIENT = 4701;
const DID = '5247010001';
const NUMBER_ID = 'p4701';
const RATE = 80;
/** The bound, in the number's time: 2 s of its pace. */
const AHEAD_AT_MOST = 2 * RATE;
/** Recipients of this run's own (a run never counts another's messages). */
const run = String(Math.floor(Math.random() * 1e3)).padStart(3, '0');
const recipientsOf = (batch: number, count: number) =>
  Array.from({ length: count }, (_, i) => `5${run}${batch}${String(i).padStart(6, '0')}`);

let stack: ChildStack;
const folder = mkdtempSync(join(tmpdir(), 'tms-shared-'));

beforeAll(async () => {
  const fixture = join(folder, 'directory.json');
  writeFileSync(
    fixture,
    JSON.stringify({
      clients: [{ client_id: CLIENT, client_name: 'Shared number' }],
      wabas: [waba('w4701', [template('470101', 'order_update', { category: 'UTILITY' })])],
      channels: [{ wa_id: DID, client_id: CLIENT, waba_id: 'w4701', phone_number_id: NUMBER_ID }],
      campaigns: [{ campaign_id: CLIENT, campaign_name: 'main', client_id: CLIENT }],
    }),
  );
  stack = await startChildStack(join(folder, 'data'), { FIXTURE: fixture, FRESH: 'true', KEEP_DATA: 'false', AUTO_STATUSES: '' });
  useStack(stack);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const owner = () => token({ clientId: CLIENT, campaigns: [CLIENT] });

/** A UTILITY send from the number; the moment it was answered. */
async function sendOf(recipients: string[]) {
  const response = await call('POST', `/v1/template/messages/${DID}`, {
    token: await owner(),
    body: {
      did: DID,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: 'order_update', language: 'en_US' },
      recipients: recipients.map((to) => ({ to, params: { body: [to.slice(-5)] } })),
    },
  });
  expect(response.status).toBe(200);
  return { sendId: response.body.send_id as string, answeredAt: Date.now() };
}

/** What the emulator took of these recipients: each one's recipient, accept and launch times. */
async function sentTo(recipients: string[]) {
  const wanted = new Set(recipients);
  const { sent } = await emulator('GET', `sent?phone_number_id=${NUMBER_ID}`);
  return (sent as { accepted_at: number; launched_at: number; message: { to: string } }[]).filter((m) => wanted.has(m.message.to));
}

describe('a number shared by its sends (issue 44)', () => {
  it('a send of 3 beside a 10,000-recipient send of the same category on the same number: all 3 launched within 2 s of the number’s pace after its answer, the big send exact, the number within 1.1 × its rate', async () => {
    // Prepare: the big send dispatching, several of its jobs on the number
    const big = recipientsOf(1, 10_000);
    const { sendId } = await sendOf(big);
    await untilFound('the big send dispatching', async () => ((await sentTo(big)).length >= 300 ? true : undefined), 120_000, 250);
    // Act: a send of 3 of the same category on the same number
    const three = recipientsOf(2, 3);
    const { answeredAt } = await sendOf(three);
    const arrived = await untilFound(
      'the send of 3 at the emulator',
      async () => {
        const seen = await sentTo(three);
        return seen.length === 3 ? seen : undefined;
      },
      60_000,
      100,
    );
    // Assess: at most 2 s of the number's pace of the big send launched before the send of 3 was through
    const wait = Math.max(...arrived.map((m) => m.accepted_at)) - answeredAt;
    const launched = Math.max(...arrived.map((m) => m.launched_at)) - answeredAt;
    const between = (await sentTo(big)).filter((m) => m.launched_at > answeredAt && m.launched_at < answeredAt + launched).length;
    console.info(
      `shared number: the send of 3 was at the emulator ${wait} ms after its answer (launched ${launched} ms after it, ${between} of the big send's launched between)`,
    );
    expect(between).toBeLessThanOrEqual(AHEAD_AT_MOST);
    // The big send went on after it, exact once cancelled, and the number never above 1.1 × its rate at launch
    const lastOfThree = Math.max(...arrived.map((m) => m.launched_at));
    await untilFound(
      'the big send going on after the send of 3',
      async () => ((await sentTo(big)).some((m) => m.launched_at > lastOfThree) ? true : undefined),
      60_000,
      250,
    );
    const cancel = await call('POST', `/v1/sends/${sendId}/cancel`, { token: await owner() });
    expect([202, 409]).toContain(cancel.status);
    const counts = await untilFound(
      'the big send settled',
      async () => {
        const { body } = await call('GET', `/v1/sends/${sendId}`, { token: await owner() });
        return body.pending === 0 ? (body as Record<string, number>) : undefined;
      },
      120_000,
      250,
    );
    const seen = await sentTo(big);
    expect(counts.sent + counts.cancelled).toBe(big.length);
    expect(new Set(seen.map((m) => m.message.to)).size).toBe(seen.length);
    expect(seen).toHaveLength(counts.sent);
    expect(peakSecond([...seen, ...arrived].map((m) => m.launched_at))).toBeLessThanOrEqual(RATE * 1.1);
  }, 300_000);
});
