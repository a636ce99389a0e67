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
 * Fair dispatch between tenants and priority on a number (decisions §23, issue 33), through a stack of this
 * file's own (`npm start` in a child process) as issue 33 found the problem: every number capped at 20 messages a
 * second (MESSAGES_PER_SECOND, so this machine is not the limit), the dispatcher at its default concurrency
 * (DISPATCH_CONCURRENCY, no longer a ceiling of 10). Times are the service's own launch stamps (`launched_at`)
 * against the moment the send was answered. (At DISPATCH_CONCURRENCY=10 the newcomer went in 4.5 to 4.6 s in
 * three runs here, through the fair queue and the slices: a slice is at least a block, 4.5 s at 20 a second.)
 * The 5 s bound is asserted in the numbers' time, not the wall clock's: at most 5 s of the campaigns' pace is
 * launched between the send's answer and its last launch (what the dispatcher decides); on a loaded machine the
 * campaigns slow with it. The wall-clock wait is logged (270 to 3,260 ms in a dozen runs here).
 */
const CLIENTS = Array.from({ length: 11 }, (_, i) => 4601 + i);
const didOf = (client: number) => `52${client}0001`;
const numberIdOf = (client: number) => `p${client}`;
const wabaOf = (client: number) => `w${client}`;
/** Recipients of this run's own (a run never counts another's messages). */
const run = String(Math.floor(Math.random() * 1e3)).padStart(3, '0');
const recipientsOf = (client: number, batch: number, count: number) =>
  Array.from({ length: count }, (_, i) => `5${run}${client}${batch}${String(i).padStart(5, '0')}`);
const RATE = 20;
/** The issues' bound, in the numbers' time: 5 s of a number's pace. */
const WITHIN_S = 5;

let stack: ChildStack;
const folder = mkdtempSync(join(tmpdir(), 'tms-fair-'));

beforeAll(async () => {
  const fixture = join(folder, 'directory.json');
  writeFileSync(
    fixture,
    JSON.stringify({
      clients: CLIENTS.map((client) => ({ client_id: client, client_name: `Tenant ${client}` })),
      wabas: CLIENTS.map((client) =>
        waba(wabaOf(client), [
          template(`${client}01`, 'spring_sale', { category: 'MARKETING' }),
          template(`${client}02`, 'login_notice', { category: 'UTILITY' }),
        ]),
      ),
      channels: CLIENTS.map((client) => ({
        wa_id: didOf(client),
        client_id: client,
        waba_id: wabaOf(client),
        phone_number_id: numberIdOf(client),
      })),
      campaigns: CLIENTS.map((client) => ({ campaign_id: client, campaign_name: 'main', client_id: client })),
    }),
  );
  stack = await startChildStack(join(folder, 'data'), {
    FIXTURE: fixture,
    FRESH: 'true',
    KEEP_DATA: 'false',
    AUTO_STATUSES: '',
    MESSAGES_PER_SECOND: String(RATE),
  });
  useStack(stack);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const tokenOf = (client: number) => token({ clientId: client, campaigns: [client] });

/** A send from the client's own number; the moment it was answered. */
async function sendOf(client: number, templateName: string, recipients: string[]) {
  const response = await call('POST', `/v1/template/messages/${didOf(client)}`, {
    token: await tokenOf(client),
    body: {
      did: didOf(client),
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: templateName, language: 'en_US' },
      recipients: recipients.map((to) => ({ to, params: { body: [to.slice(-5)] } })),
    },
  });
  expect(response.status).toBe(200);
  return { sendId: response.body.send_id as string, answeredAt: Date.now() };
}

/** What the emulator took of these recipients on the client's number: each one's recipient and launch time. */
async function launchesOf(client: number, recipients: string[]) {
  const wanted = new Set(recipients);
  const { sent } = await emulator('GET', `sent?phone_number_id=${numberIdOf(client)}`);
  return (sent as { launched_at: number; message: { to: string } }[]).filter((m) => wanted.has(m.message.to));
}

/** A campaign's launches after `from` and before `to` (the service's launch stamps). */
async function launchedBetween(client: number, recipients: string[], from: number, to: number) {
  return (await launchesOf(client, recipients)).filter((m) => m.launched_at > from && m.launched_at < to).length;
}

async function cancel(client: number, sendId: string) {
  const answer = await call('POST', `/v1/sends/${sendId}/cancel`, { token: await tokenOf(client) });
  expect([202, 409]).toContain(answer.status);
}

/** A cancelled send once nothing of it is pending: its final counts. */
async function cancelled(client: number, sendId: string) {
  let last = '';
  return untilFound(
    () => `send ${sendId} settled (last seen ${last})`,
    async () => {
      const { body } = await call('GET', `/v1/sends/${sendId}`, { token: await tokenOf(client) });
      last = JSON.stringify(body);
      return body.pending === 0 ? (body as Record<string, number>) : undefined;
    },
    120_000,
    250,
  );
}

/** Each campaign's counts exact after its cancel: what was sent is at the emulator once, the rest cancelled. */
async function assessCampaign(client: number, sendId: string, recipients: string[]) {
  const counts = await cancelled(client, sendId);
  const seen = await launchesOf(client, recipients);
  expect(counts.sent + counts.cancelled + counts.failed).toBe(recipients.length);
  expect(counts.failed).toBe(0);
  expect(new Set(seen.map((m) => m.message.to)).size).toBe(seen.length);
  expect(seen).toHaveLength(counts.sent);
  return seen;
}

describe('fair dispatch between tenants, and priority on a number (decisions §23)', () => {
  it('ten tenants’ campaigns of 1,500 running: an idle tenant’s 3-recipient send is all launched within 5 s of the campaigns’ pace after its answer', async () => {
    // Prepare: ten campaigns, each on its tenant's own number, all dispatching. They are accepted one after
    // another: ten acceptances of 1,500 at once in the local stack's one process outlast the route's time on a
    // loaded machine (CI read 502s from the route's timeout), and what is measured is their running, not their
    // acceptance
    const [newcomer, ...busy] = CLIENTS.slice(0, 11).reverse();
    const campaigns: { client: number; recipients: string[]; sendId: string; answeredAt: number }[] = [];
    for (const client of busy) {
      const recipients = recipientsOf(client, 1, 1500);
      campaigns.push({ client, recipients, ...(await sendOf(client, 'spring_sale', recipients)) });
    }
    for (const { client, recipients } of campaigns)
      await untilFound(
        `${client} dispatching`,
        async () => ((await launchesOf(client, recipients)).length > 0 ? true : undefined),
        60_000,
        250,
      );
    // Act: the idle tenant sends 3
    const three = recipientsOf(newcomer, 1, 3);
    const { answeredAt, sendId: newId } = await sendOf(newcomer, 'spring_sale', three);
    let last = '';
    const arrived = await untilFound(
      () => `the newcomer’s 3 messages ${last}`,
      async () => {
        last = JSON.stringify((await call('GET', `/v1/sends/${newId}`, { token: await tokenOf(newcomer) })).body);
        const seen = await launchesOf(newcomer, three);
        return seen.length === 3 ? seen : undefined;
      },
      60_000,
      100,
    );
    // Assess: the newcomer within 5 s of the campaigns' pace; every campaign exact (cancelled once measured), at most
    // 1.1 × the rate
    const lastLaunch = Math.max(...arrived.map((m) => m.launched_at));
    const between = (
      await Promise.all(campaigns.map(({ client, recipients }) => launchedBetween(client, recipients, answeredAt, lastLaunch)))
    ).reduce((sum, n) => sum + n, 0);
    console.info(
      `fair dispatch: the newcomer's 3 messages launched ${lastLaunch - answeredAt} ms after its answer, ${between} of the campaigns' between`,
    );
    expect(between).toBeLessThanOrEqual(WITHIN_S * RATE * busy.length);
    for (const { client, sendId } of campaigns) await cancel(client, sendId);
    for (const { client, sendId, recipients } of campaigns) {
      const seen = await assessCampaign(client, sendId, recipients);
      expect(peakSecond(seen.map((m) => m.launched_at))).toBeLessThanOrEqual(RATE * 1.1);
    }
  }, 300_000);

  it('a 3-recipient UTILITY send on a number running a 10,000 MARKETING campaign: all 3 launched within 5 s of the number’s pace, the campaign exact, the number within 1.1 × its rate', async () => {
    // Prepare: the campaign dispatching on the number
    const client = CLIENTS[0];
    const campaign = recipientsOf(client, 2, 10_000);
    const { sendId } = await sendOf(client, 'spring_sale', campaign);
    await untilFound(
      'the campaign dispatching',
      async () => ((await launchesOf(client, campaign)).length >= 40 ? true : undefined),
      60_000,
      250,
    );
    // Act: a UTILITY send of 3 on the same number
    const three = recipientsOf(client, 3, 3);
    const { answeredAt } = await sendOf(client, 'login_notice', three);
    const arrived = await untilFound(
      'the UTILITY send’s 3 messages',
      async () => {
        const seen = await launchesOf(client, three);
        return seen.length === 3 ? seen : undefined;
      },
      60_000,
      100,
    );
    // Assess: within 5 s of the number's pace (at most that many of the campaign's launched before the last of the 3)
    const lastLaunch = Math.max(...arrived.map((m) => m.launched_at));
    const between = await launchedBetween(client, campaign, answeredAt, lastLaunch);
    console.info(
      `priority: the UTILITY send's 3 messages launched ${lastLaunch - answeredAt} ms after its answer, ${between} of the campaign's between`,
    );
    expect(between).toBeLessThanOrEqual(WITHIN_S * RATE);
    // The campaign goes on after them (a UTILITY send holds the number from campaigns a second past its last slot,
    // issue 44: so it is waited for, not raced by the cancel), and the number never above 1.1 × its rate with both on it
    await untilFound(
      'the campaign going on after the UTILITY send',
      async () => ((await launchesOf(client, campaign)).some((m) => m.launched_at > lastLaunch) ? true : undefined),
      60_000,
      250,
    );
    await cancel(client, sendId);
    const seen = await assessCampaign(client, sendId, campaign);
    expect(Math.max(...seen.map((m) => m.launched_at))).toBeGreaterThan(lastLaunch);
    expect(peakSecond([...seen, ...arrived].map((m) => m.launched_at))).toBeLessThanOrEqual(RATE * 1.1);
  }, 300_000);
});
