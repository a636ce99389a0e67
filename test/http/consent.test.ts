import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape, token, tokens } from '../support/api.ts';
import { seedDirectory, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Each person's opt-out on the running local stack (decisions §25, issue 35): a client's suppression list fed
 * by the API, by people's own "STOP" through Meta's `messages` webhook and by 131050 refusals; MARKETING sends
 * skip who is on it, other categories do not. Client 542 has its own WABA and number.
 */
const CLIENT = 542;
const DID = '5215554201';
const NUMBER_ID = 'p542001';
const WABA = 'w542';
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const person = (n: number) => `52155${run}${String(n).padStart(3, '0')}`;

const demo = JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8'));
const utility = { ...demo.wabas[0].templates.find((t: { name: string }) => t.name === 'order_update'), id: 't542u' };
const marketing = {
  id: 't542m',
  name: 'weekly_offer',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'This week: {{1}}', example: { body_text: [['20% off']] } }],
};
const owner = () => token({ clientId: CLIENT, campaigns: [] });

const send = async (template: { name: string }, recipients: string[], query = '') =>
  call('POST', `/v1/template/messages/${DID}${query}`, {
    token: await owner(),
    body: {
      did: DID,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: template.name, language: 'en_US' },
      recipients: recipients.map((to) => ({ to, params: { body: ['x'] } })),
    },
  });
const statusOf = async (sendId: string) => (await call('GET', `/v1/sends/${sendId}`, { token: await owner() })).body;
const settled = (sendId: string) =>
  until(
    () => statusOf(sendId),
    (s) => s.pending === 0,
    30_000,
  );
const listed = async () =>
  (await call('GET', '/v1/suppressions?size=500', { token: await owner() })).body.data as {
    phone: string;
    source: string;
    message_id?: string;
  }[];
const sentTo = async (to: string, template: string) =>
  ((await emulator('GET', `sent?to=${to}&template=${template}`)).sent as unknown[]).length;
const writes = (from: string, text: string) => emulator('POST', `numbers/${NUMBER_ID}/inbound`, { from, text });

beforeAll(async () => {
  await seedDirectory({
    clients: [{ client_id: CLIENT, client_name: 'Consent' }],
    wabas: [waba(WABA, [utility, marketing])],
    channels: [{ wa_id: DID, client_id: CLIENT, waba_id: WABA, phone_number_id: NUMBER_ID }],
  });
  await emulator('POST', 'wabas', {
    id: WABA,
    templates: [utility, marketing],
    phone_numbers: [{ id: NUMBER_ID, display_phone_number: DID }],
  });
}, 60_000);

describe('opting out and back in (decisions §25)', () => {
  it('a “Stop” keeps the next MARKETING send from the person, not a UTILITY one; “START” takes them off', {
    timeout: 120_000,
  }, async () => {
    // Prepare: person 1 writes “Stop” to the client's number
    const [optedOut, other] = [person(1), person(2)];
    await writes(optedOut, ' Stop ');
    const entries = await until(listed, (list) => list.some((e) => e.phone === optedOut), 15_000);
    // Act
    const dry = await send(marketing, [optedOut, other], '?dry_run=true');
    const campaign = await send(marketing, [optedOut, other]);
    const notice = await send(utility, [optedOut]);
    const campaignStatus = await settled(campaign.body.send_id);
    const noticeStatus = await settled(notice.body.send_id);
    const rows = (await call('GET', `/v1/sends/${campaign.body.send_id}/recipients`, { token: await owner() })).body.data;
    await writes(optedOut, 'START');
    const after = await until(listed, (list) => !list.some((e) => e.phone === optedOut), 15_000);
    // Assess
    expect(entries.find((e) => e.phone === optedOut)).toMatchObject({ source: 'inbound', message_id: expect.stringMatching(/^wamid\./) });
    expect(dry.body.suppressed).toEqual([{ index: 0, to: optedOut }]);
    expect(campaignStatus).toMatchObject({ total: 2, suppressed: 1, sent: 1, pending: 0 });
    expect(rows.map((r: { to: string; status: string }) => [r.to, r.status])).toEqual([
      [optedOut, 'suppressed'],
      [other, expect.stringMatching(/^(sent|delivered|read)$/)],
    ]);
    expect(await sentTo(optedOut, 'weekly_offer')).toBe(0);
    expect(noticeStatus).toMatchObject({ total: 1, suppressed: 0, sent: 1 });
    expect(await sentTo(optedOut, 'order_update')).toBe(1);
    expect(after.some((e) => e.phone === optedOut)).toBe(false);
  });

  it('a 131050 refusal (the person stopped marketing from the business) puts them on the list', { timeout: 120_000 }, async () => {
    // Prepare
    const refusing = person(3);
    await emulator('POST', 'faults', { path: `/${NUMBER_ID}/messages`, body: `"to":"${refusing}"`, status: 400, code: 131050, times: 1 });
    // Act
    const accepted = await send(marketing, [refusing]);
    const status = await settled(accepted.body.send_id);
    // Assess
    expect(status).toMatchObject({ failed: 1, errors: [expect.objectContaining({ code: '131050' })] });
    expect((await listed()).find((e) => e.phone === refusing)).toMatchObject({ source: '131050' });
  });
});

describe('/v1/suppressions (decisions §25)', () => {
  it('adds, lists and removes an entry; the first entry of a number stays', async () => {
    // Prepare
    const phone = person(4);
    // Act
    const added = await call('POST', '/v1/suppressions', { token: await owner(), body: { phone: `+${phone}`, reason: 'asked by phone' } });
    const again = await call('POST', '/v1/suppressions', { token: await owner(), body: { phone } });
    const list = await listed();
    const removed = await call('DELETE', `/v1/suppressions/${phone}`, { token: await owner() });
    const gone = await call('DELETE', `/v1/suppressions/${phone}`, { token: await owner() });
    // Assess
    expect(added.body).toMatchObject({ client_id: CLIENT, created: true, phone, source: 'api', reason: 'asked by phone' });
    expect(again.body).toMatchObject({ created: false, reason: 'asked by phone' });
    expect(list.some((e) => e.phone === phone)).toBe(true);
    expect(removed.body).toEqual({ client_id: CLIENT, phone, removed: true });
    expectErrorShape(gone, 404);
  });

  it('keeps tenants apart: an agent naming another client is 403, BSP_CN must name one (400) and may name any', async () => {
    // Prepare / Act
    const other = await call('GET', '/v1/suppressions?client_id=7', { token: await owner() });
    const unnamed = await call('GET', '/v1/suppressions', { token: await tokens.bsp() });
    const named = await call('GET', `/v1/suppressions?client_id=${CLIENT}`, { token: await tokens.bsp() });
    const addForOther = await call('POST', '/v1/suppressions', { token: await owner(), body: { phone: person(5), client_id: 7 } });
    // Assess
    expectErrorShape(other, 403);
    expectErrorShape(unnamed, 400);
    expect(named.status).toBe(200);
    expectErrorShape(addForOther, 403);
  });

  it('refuses a phone that is not one (400)', async () => {
    // Prepare / Act
    const answers = await Promise.all([
      call('POST', '/v1/suppressions', { token: await owner(), body: { phone: '12' } }),
      call('POST', '/v1/suppressions', { token: await owner(), body: {} }),
      call('DELETE', '/v1/suppressions/not-a-phone', { token: await owner() }),
    ]);
    // Assess
    for (const answer of answers) expectErrorShape(answer, 400);
  });
});
