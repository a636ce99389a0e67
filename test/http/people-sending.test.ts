import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * Sends to people, not only phone numbers, on the running local stack (decisions §28, issue 43): recipients by
 * BSUID, Meta's 131062 for the templates it refuses for one, repeats per person, and Meta's per-user marketing
 * limit (131049) counted `capped`. Client 580 has its own WABA and number, which reports sent and delivered.
 */
const client = new OwnClient(580);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const bsuid = (i: number) => `MX.580${run}${String(i).padStart(4, '0')}`;
const phone = (i: number) => `52580${run}${String(i).padStart(4, '0')}`;
const sentTo = async (field: 'to' | 'recipient', value: string) =>
  ((await emulator('GET', `sent?phone_number_id=${client.numberId}`)).sent as { message: Record<string, unknown> }[]).filter(
    (m) => m.message[field] === value,
  );
const send = async (template: string, recipients: Record<string, unknown>[], query = '') =>
  call('POST', `/v1/template/messages/${client.did}${query}`, {
    token: await client.token(),
    body: { did: client.did, type: 'template', channel: 'MSGCHAN', template: { name: template, language: 'en_US' }, recipients },
  });
const rows = async (sendId: string, status = '') =>
  (await call('GET', `/v1/sends/${sendId}/recipients${status && `?status=${status}`}`, { token: await client.token() })).body
    .data as Record<string, any>[];

beforeAll(async () => {
  await client.seed('People', [
    demoTemplateAs('order_update', { id: 't580' }),
    demoTemplateAs('login_code', { id: 't580a' }),
    demoTemplateAs('summer_promo', { id: 't580m', status: 'APPROVED' }),
  ]);
  await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
}, 60_000);

describe('recipients by BSUID (decisions §28)', () => {
  it('sends a UTILITY template to 3 BSUIDs by `recipient`, counts their statuses, and lists each with its user_id', {
    timeout: 90_000,
  }, async () => {
    // Prepare
    const people = [bsuid(1), bsuid(2), bsuid(3)];
    // Act
    const accepted = await send(
      'order_update',
      people.map((user_id) => ({ user_id, params: { body: [`A-${user_id}`] } })),
    );
    const status = await client.settled(accepted.body.send_id, (s) => s.delivered === 3);
    const listed = await rows(accepted.body.send_id);
    // Assess
    expect(accepted.status).toBe(200);
    expect(accepted.body.estimate.by_market).toEqual({ Mexico: expect.objectContaining({ messages: 3 }) });
    for (const user_id of people) {
      const [message] = await sentTo('recipient', user_id);
      expect(message.message.recipient).toBe(user_id);
      expect(message.message.to).toBeUndefined();
    }
    expect(status).toMatchObject({ total: 3, sent: 3, delivered: 3, failed: 0, capped: 0 });
    expect(listed.map((r) => [r.user_id, r.to, r.status, r.api])).toEqual(people.map((id) => [id, undefined, 'delivered', 'cloud']));
  });

  it('refuses a copy-code AUTHENTICATION send to a BSUID in the dry run with 131062, and never sends it', { timeout: 60_000 }, async () => {
    // Prepare
    const params = { body: ['123456'], buttons: ['123456'] };
    const recipients = [
      { user_id: bsuid(10), params },
      { to: phone(10), user_id: bsuid(11), params },
    ];
    // Act
    const dry = await send('login_code', recipients, '?dry_run=true');
    const accepted = await send('login_code', recipients);
    const status = await client.settled(accepted.body.send_id);
    // Assess
    expect(dry.body).toMatchObject({ success: false, total: 2, valid: 1, invalid: [{ index: 0, code: '131062' }] });
    expect(status).toMatchObject({ sent: 1, failed: 1, errors: [{ code: '131062', count: 1 }] });
    expect(await sentTo('recipient', bsuid(10))).toHaveLength(0);
    expect(await sentTo('to', phone(10))).toHaveLength(1);
  });

  it('sends once to a person named by number and BSUID and again by the BSUID alone', { timeout: 60_000 }, async () => {
    // Prepare
    const body = { body: ['A-1'] };
    // Act
    const accepted = await send('order_update', [
      { to: phone(20), user_id: bsuid(20), params: body },
      { user_id: bsuid(20), params: body },
      { to: `+${phone(20)}`, params: body },
    ]);
    const status = await client.settled(accepted.body.send_id, (s) => s.delivered === 1);
    const listed = await rows(accepted.body.send_id);
    // Assess
    expect(status).toMatchObject({ total: 3, duplicates_removed: 2, sent: 1 });
    expect(await sentTo('to', phone(20))).toHaveLength(1);
    expect(await sentTo('recipient', bsuid(20))).toHaveLength(0);
    expect(listed.map((r) => r.status)).toEqual(['delivered', 'duplicate', 'duplicate']);
    expect(listed[1]).toMatchObject({ user_id: bsuid(20) });
  });

  it('answers 400 for a recipient with neither to nor user_id, or a user_id that is no BSUID', async () => {
    // Prepare / Act
    const neither = await send('order_update', [{ params: { body: ['x'] } }]);
    const malformed = await send('order_update', [{ user_id: 'user.abc', params: { body: ['x'] } }]);
    const dry = await send('order_update', [{ user_id: 'MX.1', params: { body: ['x'] } }, { params: { body: ['x'] } }], '?dry_run=true');
    // Assess
    expectErrorShape(neither, 400);
    expectErrorShape(malformed, 400);
    expect(dry.body).toMatchObject({ total: 2, valid: 1, invalid: [{ index: 1 }] });
  });
});

describe('Meta’s per-user marketing limit (decisions §28)', () => {
  it('counts 131049 capped, apart from failed; lists it capped; a resend of failed leaves it out', { timeout: 90_000 }, async () => {
    // Prepare: one person at Meta's limit, one refused for another reason (worth another try), one delivered
    const [capped, refused, fine] = [phone(30), phone(31), phone(32)];
    await emulator('POST', `users/${capped}/capped`);
    await emulator('POST', 'faults', {
      path: `/${client.numberId}/messages`,
      body: `"to":"${refused}"`,
      status: 400,
      code: 131047,
      times: 1,
    });
    const params = { header: ['Ana'], body: ['20%'] };
    // Act
    const accepted = await send(
      'summer_promo',
      [capped, refused, fine].map((to) => ({ to, params })),
    );
    const status = await client.settled(accepted.body.send_id, (s) => s.capped === 1 && s.delivered === 1 && s.pending === 0);
    const cappedRows = await rows(accepted.body.send_id, 'capped');
    const resend = await call('POST', `/v1/sends/${accepted.body.send_id}/resend?dry_run=true`, {
      token: await client.token(),
      body: { which: 'failed' },
    });
    // Assess
    expect(status).toMatchObject({ total: 3, sent: 1, delivered: 1, failed: 1, capped: 1, pending: 0 });
    expect(cappedRows).toEqual([
      expect.objectContaining({ to: capped, status: 'capped', error: expect.objectContaining({ code: '131049' }) }),
    ]);
    expect(resend.body).toMatchObject({ dry_run: true, total: 1, valid: 1 });
  });

  it('warns a MARKETING dry run of +1 numbers with a US area code (us_marketing_paused)', async () => {
    // Prepare
    const params = { header: ['Ana'], body: ['20%'] };
    // Act
    const dry = await send(
      'summer_promo',
      [
        { to: '+12025550143', params },
        { to: phone(40), params },
      ],
      '?dry_run=true',
    );
    // Assess
    expect(dry.body.warnings).toContainEqual({ code: 'us_marketing_paused', message: expect.stringContaining('positions 0)') });
  });
});

describe('a person the people map knows (decisions §28)', () => {
  it('sends once to a number and the BSUID an earlier status paired it with', { timeout: 90_000 }, async () => {
    // Prepare: the emulator's person has a number and a BSUID; a first send by number teaches the service the pair
    const person = { phone: phone(40), user_id: bsuid(40) };
    await emulator('POST', 'users', person);
    const first = await send('order_update', [{ to: person.phone, params: { body: ['first'] } }]);
    await client.settled(first.body.send_id, (s) => s.delivered === 1);
    // Act: the same person by number and by BSUID
    const accepted = await send('order_update', [
      { to: person.phone, params: { body: ['again'] } },
      { user_id: person.user_id, params: { body: ['again'] } },
    ]);
    const status = await client.settled(accepted.body.send_id, (s) => s.pending === 0 && s.delivered === s.sent);
    // Assess: one message, to the number; the BSUID counted a repeat
    expect(status).toMatchObject({ total: 2, sent: 1, duplicates_removed: 1 });
    expect(await sentTo('recipient', person.user_id)).toEqual([]);
  });
});
