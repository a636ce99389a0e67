import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoMarketingCounts } from '#lib/adapters/dynamo/people/frequency-caps.ts';
import { FREQUENCY_CAP_LIMITS } from '#lib/domain/people/frequency-caps.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { call, emulator, expectErrorShape, token, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { useStackTable } from '../support/seed.ts';

/**
 * A cap on marketing per person through the stack (issue 56 item 4, decisions §33): `PUT` and `GET
 * /v1/clients/{client_id}/frequency-cap` with every 400, 403 and 404 row, and the Done-when: a cap of 1 per
 * 7 days, a second MARKETING send skips the people the first reached (counted `capped_by_rule`, named by the dry
 * run), a UTILITY send is not capped, a person known by number and BSUID is capped once, and sends dispatched at
 * once never pass the cap. Clients 721 (the sends), 722 (sends at once) and 723 (the route's rows) are this file's;
 * 729 is never made.
 */
const sender = new OwnClient(721);
const racer = new OwnClient(722);
const rows = new OwnClient(723);
const UNKNOWN_CLIENT = 729;
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const phone = (client: number, i: number) => `52${client}${run}${String(i).padStart(4, '0')}`;
const PROMO = { header: ['Ana'], body: ['20%'] };

const adminOf = (clientId: number) => token({ clientId, campaigns: [], role: 'admin', sub: `admin-${clientId}` });
const path = (clientId: number | string) => `/v1/clients/${clientId}/frequency-cap`;
const putCap = async (clientId: number | string, body: unknown, as?: string) =>
  call('PUT', path(clientId), { token: as ?? (await tokens.bsp()), body });

beforeAll(async () => {
  for (const [client, name] of [
    [sender, 'Caps 721'],
    [racer, 'Caps 722'],
  ] as const) {
    await client.seed(name, [
      demoTemplateAs('summer_promo', { id: `t${client.clientId}m`, status: 'APPROVED' }),
      demoTemplateAs('order_update', { id: `t${client.clientId}u` }),
    ]);
    await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent', 'delivered'] });
  }
  await rows.seed('Caps 723', [demoTemplateAs('order_update', { id: 't723u' })]);
}, 60_000);

/** A send of the client's template to these recipients (a number, or `{user_id}`), with its values. */
async function send(client: OwnClient, template: string, recipients: (string | { user_id: string })[], query = '') {
  const params = template === 'summer_promo' ? PROMO : { body: ['A-1'] };
  return call('POST', `/v1/template/messages/${client.did}${query}`, {
    token: await client.token(),
    body: {
      did: client.did,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: template, language: 'en_US' },
      recipients: recipients.map((r) => (typeof r === 'string' ? { to: r, params } : { ...r, params })),
    },
  });
}

/** The messages the emulator accepted from the client's number, of the template. */
const sentBy = async (client: OwnClient, template: string) =>
  (await emulator('GET', `sent?phone_number_id=${client.numberId}&template=${template}`)).sent as { message: Record<string, string> }[];

describe('PUT and GET /v1/clients/{client_id}/frequency-cap', () => {
  it('sets a cap (BSP_CN, or the client’s administrator), reads it, and removes it with `marketing: null`', async () => {
    // Act
    const byBsp = await putCap(rows.clientId, { marketing: { max: 3, days: 30 } });
    const byAdmin = await putCap(rows.clientId, { marketing: { max: 2, days: 7 } }, await adminOf(rows.clientId));
    const read = await call('GET', path(rows.clientId), { token: await rows.token() });
    const removed = await putCap(rows.clientId, { marketing: null });
    const after = await call('GET', path(rows.clientId), { token: await tokens.bsp() });
    // Assess
    expect(byBsp.status).toBe(200);
    expect(byAdmin.body).toEqual({ client_id: rows.clientId, marketing: { max: 2, days: 7 }, updated_at: expect.any(String) });
    expect(read.body).toEqual(byAdmin.body);
    expect(removed.body).toEqual({ client_id: rows.clientId, marketing: null });
    expect(after.body).toEqual({ client_id: rows.clientId, marketing: null });
  });

  it.each([
    ['no body field', {}, 'marketing'],
    ['max 0', { marketing: { max: 0, days: 7 } }, 'marketing.max'],
    [`max above ${FREQUENCY_CAP_LIMITS.max}`, { marketing: { max: FREQUENCY_CAP_LIMITS.max + 1, days: 7 } }, 'marketing.max'],
    ['max not whole', { marketing: { max: 1.5, days: 7 } }, 'marketing.max'],
    ['days missing', { marketing: { max: 1 } }, 'marketing.days'],
    [`days above ${FREQUENCY_CAP_LIMITS.days}`, { marketing: { max: 1, days: FREQUENCY_CAP_LIMITS.days + 1 } }, 'marketing.days'],
    ['days a string', { marketing: { max: 1, days: '7' } }, 'marketing.days'],
    ['another category', { marketing: null, utility: { max: 1, days: 1 } }, 'utility'],
    ['another field of the cap', { marketing: { max: 1, days: 7, hours: 1 } }, 'marketing.hours'],
  ])('answers 400 naming the field for %s', async (_, body, field) => {
    // Act
    const response = await putCap(rows.clientId, body);
    // Assess
    const error = expectErrorShape(response, 400);
    expect(error.details?.map((d) => d.path)).toContain(field);
  });

  it('answers 400 for a client id that is not one, naming it', async () => {
    // Act
    const put = await putCap('seven', { marketing: null });
    const get = await call('GET', path('0'), { token: await tokens.bsp() });
    // Assess
    expect(expectErrorShape(put, 400).details?.map((d) => d.path)).toContain('client_id');
    expect(expectErrorShape(get, 400).details?.map((d) => d.path)).toContain('client_id');
  });

  it('answers 403 to an agent of the client, another client’s administrator, and a reader of another client', async () => {
    // Act
    const agent = await putCap(rows.clientId, { marketing: null }, await rows.token());
    const otherAdmin = await putCap(rows.clientId, { marketing: null }, await adminOf(sender.clientId));
    const otherReader = await call('GET', path(rows.clientId), { token: await sender.token() });
    // Assess
    for (const response of [agent, otherAdmin, otherReader]) expectErrorShape(response, 403);
  });

  it('answers 404 to BSP_CN for a client that does not exist, and writes nothing', async () => {
    // Act
    const put = await putCap(UNKNOWN_CLIENT, { marketing: { max: 1, days: 7 } });
    const get = await call('GET', path(UNKNOWN_CLIENT), { token: await tokens.bsp() });
    // Assess
    expectErrorShape(put, 404);
    expectErrorShape(get, 404);
  });

  it('answers 200 to exactly the caps within the bounds, 400 to any other body, naming a field of an object (generated bodies)', async () => {
    // Prepare: valid caps, caps with a number out of bounds or of another kind, and any JSON
    const number = fc.oneof(fc.integer({ min: -5, max: 120 }), fc.double({ noNaN: true }), fc.constant(2 ** 53));
    const body = fc.oneof(fc.record({ marketing: fc.oneof(fc.constant(null), fc.record({ max: number, days: number })) }), fc.jsonValue());
    const valid = (b: unknown) => {
      if (typeof b !== 'object' || b === null || Array.isArray(b) || Object.keys(b).join() !== 'marketing') return false;
      const cap = (b as { marketing: unknown }).marketing;
      if (cap === null) return true;
      const { max, days } = cap as { max: number; days: number };
      const within = (n: number, most: number) => Number.isInteger(n) && n >= 1 && n <= most;
      return within(max, FREQUENCY_CAP_LIMITS.max) && within(days, FREQUENCY_CAP_LIMITS.days);
    };
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        // Act
        const response = await putCap(rows.clientId, b);
        // Assess
        if (valid(b)) expect(response.status).toBe(200);
        else {
          const error = expectErrorShape(response, 400);
          // A body that is an object has a field to name; `null` is answered as a body missing.
          if (typeof b === 'object' && b !== null) expect(error.details?.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('a cap of 1 MARKETING message per person per 7 days (Done-when)', () => {
  const people = [1, 2, 3].map((i) => phone(721, i));

  beforeAll(async () => {
    await putCap(sender.clientId, { marketing: { max: 1, days: 7 } });
  });

  it('a second MARKETING send skips the people the first reached, counted capped_by_rule; the dry run names them', {
    timeout: 90_000,
  }, async () => {
    // Prepare: a first MARKETING send to the three
    const first = await send(sender, 'summer_promo', people);
    await sender.settled(first.body.send_id);
    const newcomer = phone(721, 4);
    // Act: the same three and one more
    const dry = await send(sender, 'summer_promo', [...people, newcomer], '?dry_run=true');
    const second = await send(sender, 'summer_promo', [...people, newcomer]);
    const status = await sender.settled(second.body.send_id);
    const listed = await call('GET', `/v1/sends/${second.body.send_id}/recipients?status=capped_by_rule`, { token: await sender.token() });
    // Assess
    expect(dry.body.capped_by_rule).toEqual(people.map((to, index) => ({ index, to })));
    expect(status).toMatchObject({ total: 4, sent: 1, capped_by_rule: 3, failed: 0, pending: 0 });
    expect(listed.body.data.map((r: { to: string; status: string }) => [r.to, r.status])).toEqual(
      people.map((to) => [to, 'capped_by_rule']),
    );
    const promos = await sentBy(sender, 'summer_promo');
    for (const to of people) expect(promos.filter((m) => m.message.to === to)).toHaveLength(1);
  });

  it('does not cap a UTILITY send to the same people', { timeout: 60_000 }, async () => {
    // Act
    const dry = await send(sender, 'order_update', people, '?dry_run=true');
    const utility = await send(sender, 'order_update', people);
    const status = await sender.settled(utility.body.send_id);
    // Assess
    expect(dry.body.capped_by_rule).toBeUndefined();
    expect(status).toMatchObject({ total: 3, sent: 3, capped_by_rule: 0 });
  });

  it('caps a person known by number and BSUID once: a send by the BSUID after one by the number is skipped', {
    timeout: 90_000,
  }, async () => {
    // Prepare: the emulator's person has both; a MARKETING send by the number, whose statuses teach the pair
    const person = { phone: phone(721, 10), user_id: `MX.721${run}0010` };
    await emulator('POST', 'users', person);
    const byNumber = await send(sender, 'summer_promo', [person.phone]);
    await sender.settled(byNumber.body.send_id, (s) => s.delivered === 1);
    // Act: the same person by the BSUID alone
    const dry = await send(sender, 'summer_promo', [{ user_id: person.user_id }], '?dry_run=true');
    const byBsuid = await send(sender, 'summer_promo', [{ user_id: person.user_id }]);
    const status = await sender.settled(byBsuid.body.send_id);
    // Assess
    expect(dry.body.capped_by_rule).toEqual([{ index: 0, user_id: person.user_id }]);
    expect(status).toMatchObject({ sent: 0, capped_by_rule: 1 });
    expect((await sentBy(sender, 'summer_promo')).filter((m) => m.message.recipient === person.user_id)).toEqual([]);
  });
});

describe('sends dispatched at once (the race the count’s conditional write prevents)', () => {
  it('on DynamoDB, of twenty takes of one person at once exactly `max` count: the others met a write and read again', async () => {
    // Prepare: a person of this run, a cap of 3
    useStackTable();
    const counts = new DynamoMarketingCounts(serviceTable());
    const person = [`p:${phone(722, 99)}`];
    const cap = { max: 3, days: 7 };
    // Act: twenty dispatchers take a place for the person at once
    const taken = await Promise.all(Array.from({ length: 20 }, () => counts.take(racer.clientId, person, cap, Date.now())));
    // Assess
    expect(taken.filter((t) => t !== null)).toHaveLength(3);
    expect(await counts.counted(racer.clientId, [person], cap, Date.now())).toEqual([3]);
  });

  it('never sends a person more than the cap: two MARKETING sends of the same 40 people, accepted together', {
    timeout: 120_000,
  }, async () => {
    // Prepare: a cap of 1; forty new people
    await putCap(racer.clientId, { marketing: { max: 1, days: 7 } });
    const people = Array.from({ length: 40 }, (_, i) => phone(722, i));
    // Act: both sends at once; their jobs are dispatched side by side
    const [a, b] = await Promise.all([send(racer, 'summer_promo', people), send(racer, 'summer_promo', people)]);
    const [sa, sb] = await Promise.all([racer.settled(a.body.send_id), racer.settled(b.body.send_id)]);
    // Assess: each person got one message of the two sends, the other was skipped
    const promos = await sentBy(racer, 'summer_promo');
    for (const to of people)
      expect(
        promos.filter((m) => m.message.to === to),
        to,
      ).toHaveLength(1);
    expect(sa.sent + sb.sent).toBe(40);
    expect(sa.capped_by_rule + sb.capped_by_rule).toBe(40);
  });
});
