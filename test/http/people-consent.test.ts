import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoPeopleMap } from '#lib/adapters/dynamo/people/people-map.ts';
import { peopleMapScopeOf } from '#lib/domain/people/people-map.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { call, emulator, expectErrorShape, meterOf } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { useStackTable } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Consent follows the person (decisions §28, issue 43) on the running local stack: the people map learns who
 * is who from the emulator's statuses, and a username user's "STOP" (no phone number in the webhook), Meta's
 * `user_preferences` and a STOP after a BSUID change all keep the next MARKETING send from their phone number.
 * Client 590 has its own WABA and number.
 */
const client = new OwnClient(590);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
/** +52 1 55…: Mexico City mobile numbers of this run. */
const phoneOf = (n: number) => `52155${run}${String(n).padStart(3, '0')}`;
const userIdOf = (n: number) => `MX.590${run}${String(n).padStart(3, '0')}`;
const utility = demoTemplateAs('order_update', { id: 't590u' });
const marketing = {
  id: 't590m',
  name: 'people_offer',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'This week: {{1}}', example: { body_text: [['20% off']] } }],
};
const owner = client.token;
const sentTo = async (to: string, template: string) =>
  ((await emulator('GET', `sent?to=${to}&template=${template}`)).sent as unknown[]).length;
const entryOf = async (person: string) => call('GET', `/v1/suppressions/${person}`, { token: await owner() });
const suppressed = (person: string) =>
  until(
    () => entryOf(person),
    (r) => r.status === 200,
    20_000,
  );

/** A person the emulator knows, reached once by the client's number (a delivered status names both halves). */
async function knownPerson(n: number) {
  const [phone, userId] = [phoneOf(n), userIdOf(n)];
  await emulator('POST', 'users', { phone, user_id: userId, username: `person${n}` });
  const notice = await client.send(utility.name, [phone]);
  await client.settled(notice.body.send_id, (s) => s.delivered === 1, 30_000);
  // Then they adopt a username and the number is withheld from webhooks (30 days without talking, as the emulator has it).
  await emulator('POST', 'users', { phone, user_id: userId, username: `person${n}`, phone_withheld: true });
  return { phone, userId };
}

/** The next MARKETING send to the phone number, settled. */
async function campaignTo(phone: string, other: string) {
  const campaign = await client.send(marketing.name, [phone, other]);
  return client.settled(campaign.body.send_id);
}

beforeAll(async () => {
  await client.seed('People consent', [utility, marketing]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
}, 60_000);

describe('a username user’s opt-out reaches their phone number (decisions §28)', () => {
  it('a STOP with no phone number in the webhook, from a person an earlier status showed to be +52 1 55…, suppresses that number', {
    timeout: 120_000,
  }, async () => {
    // Prepare
    const { phone, userId } = await knownPerson(1);
    // Act
    const stop = await emulator('POST', `numbers/${client.numberId}/inbound`, { user_id: userId, text: 'STOP' });
    const entry = await suppressed(phone);
    const status = await campaignTo(phone, phoneOf(901));
    // Assess: the webhook had no number; the entry names both halves; the campaign never sent to the person
    expect(stop).not.toHaveProperty('from');
    expect(entry.body).toMatchObject({ phone, user_id: userId, source: 'inbound' });
    expect((await entryOf(userId)).body).toMatchObject({ user_id: userId, source: 'inbound' });
    expect(status).toMatchObject({ total: 2, suppressed: 1, sent: 1 });
    expect(await sentTo(phone, marketing.name)).toBe(0);
  });

  it('the same when the opt-out comes from Meta’s user_preferences webhook (source meta_preferences)', { timeout: 120_000 }, async () => {
    // Prepare
    const { phone, userId } = await knownPerson(2);
    // Act
    await emulator('POST', `users/${userId}/preferences`, { phone_number_id: client.numberId, value: 'stop' });
    const entry = await suppressed(phone);
    const status = await campaignTo(phone, phoneOf(902));
    // Assess
    expect(entry.body).toMatchObject({ phone, user_id: userId, source: 'meta_preferences' });
    expect(status).toMatchObject({ total: 2, suppressed: 1, sent: 1 });
    expect(await sentTo(phone, marketing.name)).toBe(0);
  });

  it('after user_changed_user_id, a STOP from the new BSUID suppresses the person’s phone number', { timeout: 120_000 }, async () => {
    // Prepare: the person is known, then Meta gives them a new BSUID (the system message and user_id_update)
    const { phone } = await knownPerson(3);
    const newId = `MX.590${run}N03`;
    await emulator('POST', `users/${userIdOf(3)}/change-user-id`, { phone_number_id: client.numberId, new_user_id: newId });
    useStackTable();
    const table = serviceTable();
    const scope = await peopleMapScopeOf(client.waba, new DynamoDirectoryStore(table));
    const map = new DynamoPeopleMap(table);
    const moved = await until(
      () => map.pairsOf(scope, [{ user_id: newId }]),
      (pairs) => pairs.has(`u:${newId}`),
      20_000,
    );
    // Act
    await emulator('POST', `numbers/${client.numberId}/inbound`, { user_id: newId, text: 'STOP' });
    const entry = await suppressed(phone);
    const status = await campaignTo(phone, phoneOf(903));
    // Assess
    expect(moved.get(`u:${newId}`)).toMatchObject({ phone, user_id: newId });
    expect(entry.body).toMatchObject({ phone, user_id: newId, source: 'inbound' });
    expect(status).toMatchObject({ total: 2, suppressed: 1, sent: 1 });
  });
});

describe('/v1/suppressions by phone number or BSUID (decisions §28)', () => {
  it('adds by user_id, finds and removes by either half; 400 for neither or a bad BSUID', async () => {
    // Prepare
    const [phone, userId] = [phoneOf(4), userIdOf(4)];
    // Act
    const neither = await call('POST', '/v1/suppressions', { token: await owner(), body: { reason: 'no one' } });
    const badId = await call('POST', '/v1/suppressions', { token: await owner(), body: { user_id: 'user.abc' } });
    const added = await call('POST', '/v1/suppressions', { token: await owner(), body: { phone, user_id: userId } });
    const byId = await entryOf(userId);
    const removed = await call('DELETE', `/v1/suppressions/${userId}`, { token: await owner() });
    const phoneGone = await entryOf(phone);
    const badPath = await call('GET', '/v1/suppressions/not-a-person', { token: await owner() });
    // Assess
    expectErrorShape(neither, 400);
    expectErrorShape(badId, 400);
    expect(added.body).toMatchObject({ client_id: client.clientId, created: true, phone, user_id: userId, source: 'api' });
    expect(byId.body).toMatchObject({ phone, user_id: userId });
    expect(removed.body).toEqual({ client_id: client.clientId, user_id: userId, removed: true });
    expectErrorShape(phoneGone, 404);
    expectErrorShape(badPath, 400);
  });

  it('a MARKETING dry run of 250 recipients reads the map and the list a hundred keys a BatchGetItem', async () => {
    // Prepare
    const recipients = Array.from({ length: 250 }, (_, i) => `52155${run}${String(500 + i).padStart(3, '0')}`);
    // Act
    const dry = await client.send(marketing.name, recipients, { query: '?dry_run=true' });
    const meter = await meterOf(dry);
    // Assess: 3 BatchGetItem of the people map and 3 of the list (250 keys each), and nothing more of either
    expect(dry.status).toBe(200);
    expect(meter.operations.filter((o) => o === 'BatchGetItem').length).toBe(6);
  });
});
