import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * Each person's opt-out on the running local stack (decisions §25, issue 35): a client's suppression list fed
 * by the API, by people's own "STOP" through Meta's `messages` webhook and by 131050 refusals; MARKETING sends
 * skip who is on it, other categories do not. Client 542 has its own WABA and number.
 */
const client = new OwnClient(542);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const person = (n: number) => `52155${run}${String(n).padStart(3, '0')}`;
const utility = demoTemplateAs('order_update', { id: 't542u' });
const marketing = {
  id: 't542m',
  name: 'weekly_offer',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'This week: {{1}}', example: { body_text: [['20% off']] } }],
};
const owner = client.token;

const send = (template: { name: string }, recipients: string[], query = '') => client.send(template.name, recipients, { query });
const settled = (sendId: string) => client.settled(sendId);
const listed = async () =>
  (await call('GET', '/v1/suppressions?size=500', { token: await owner() })).body.data as {
    phone: string;
    source: string;
    message_id?: string;
  }[];
const sentTo = async (to: string, template: string) =>
  ((await emulator('GET', `sent?to=${to}&template=${template}`)).sent as unknown[]).length;
const writes = (from: string, text: string) => emulator('POST', `numbers/${client.numberId}/inbound`, { from, text });

beforeAll(() => client.seed('Consent', [utility, marketing]), 60_000);

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
    await emulator('POST', 'faults', {
      path: `/${client.numberId}/messages`,
      body: `"to":"${refusing}"`,
      status: 400,
      code: 131050,
      times: 1,
    });
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
    expect(added.body).toMatchObject({ client_id: client.clientId, created: true, phone, source: 'api', reason: 'asked by phone' });
    expect(again.body).toMatchObject({ created: false, reason: 'asked by phone' });
    expect(list.some((e) => e.phone === phone)).toBe(true);
    expect(removed.body).toEqual({ client_id: client.clientId, phone, removed: true });
    expectErrorShape(gone, 404);
  });

  it('shows one number’s entry and its evidence (GET /v1/suppressions/{phone}); 404 off the list or for another client', async () => {
    // Prepare: a person who wrote "Stop" to the client's number
    const phone = person(6);
    await writes(phone, 'Stop');
    await until(listed, (list) => list.some((e) => e.phone === phone), 15_000);
    // Act
    const shown = await call('GET', `/v1/suppressions/${phone}`, { token: await owner() });
    const asBsp = await call('GET', `/v1/suppressions/+${phone}?client_id=${client.clientId}`, { token: await tokens.bsp() });
    const elsewhere = await call('GET', `/v1/suppressions/${phone}?client_id=7`, { token: await tokens.bsp() });
    const stranger = await call('GET', `/v1/suppressions/${person(7)}`, { token: await owner() });
    const notAPhone = await call('GET', '/v1/suppressions/not-a-phone', { token: await owner() });
    // Assess
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ client_id: client.clientId, phone, source: 'inbound' });
    expect(shown.body.message_id).toEqual(expect.any(String));
    expect(asBsp.body).toEqual(shown.body);
    expectErrorShape(elsewhere, 404);
    expectErrorShape(stranger, 404);
    expectErrorShape(notAPhone, 400);
  });

  it('keeps tenants apart: an agent naming another client is 403, BSP_CN must name one (400) and may name any', async () => {
    // Prepare / Act
    const other = await call('GET', '/v1/suppressions?client_id=7', { token: await owner() });
    const unnamed = await call('GET', '/v1/suppressions', { token: await tokens.bsp() });
    const named = await call('GET', `/v1/suppressions?client_id=${client.clientId}`, { token: await tokens.bsp() });
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
