import { describe, expect, it } from 'vitest';
import { notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';
import { InvalidRequest, NotFound } from '#lib/domain/shared/errors.ts';
import { applyNotifications } from '#lib/domain/inbound/meta-notifications.ts';
import type { MetaNotification, NotifiedChange } from '#lib/domain/inbound/notifications.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { getSend } from '#lib/domain/sends/send-status.ts';
import { addSuppression, getSuppression, removeSuppression, suppressedPeople } from '#lib/domain/people/suppression.ts';
import { callerOf, type MemoryWorld, memoryWorld } from '../support/memory/world.ts';

/** People, not only phone numbers (decisions §28): Meta's webhooks read, the people map, consent per person. */
const WABA = '100200300';
/** The people map's scope of WABA 100200300: its business portfolio in the demo directory. */
const SCOPE = '555';
const NUMBER = '5215550001';
const PHONE = '5215512340001';
const BSUID = 'MX.13491208655302741918';
const agent = callerOf(7);
const AT = '2026-11-26T10:00:00.000Z';
/** When the tests' pairs were learned: before the webhooks' times (1780000000 is 2026-05-28). */
const LEARNED = '2026-05-01T00:00:00.000Z';
const metadata = { display_phone_number: NUMBER, phone_number_id: 'p1' };
const change = (field: string, value: unknown): NotifiedChange => ({ waba_id: WABA, at: 1_780_000_000_000, field, value });
const apply = (world: MemoryWorld, notifications: MetaNotification[]) =>
  applyNotifications(
    world,
    notifications.map((notification) => ({ notification })),
  );
const stop = (from: { from?: string; from_user_id?: string }, text = 'STOP') =>
  change('messages', {
    metadata,
    contacts: [{ profile: { name: 'Ana', username: 'ana.mx' }, user_id: from.from_user_id }],
    messages: [{ ...from, id: `wamid.in-${Math.random()}`, timestamp: '1780000100', type: 'text', text: { body: text } }],
  });
const delivered = (recipient_id: string, recipient_user_id: string) =>
  change('messages', {
    metadata,
    contacts: [{ profile: { name: 'Ana', username: 'ana.mx' }, wa_id: recipient_id, user_id: recipient_user_id }],
    statuses: [{ id: 'wamid.out-1', status: 'delivered', timestamp: '1780000000', recipient_id, recipient_user_id }],
  });

describe('Meta’s webhooks of people (upstream-facts §9.A3–A5)', () => {
  it('reads a status’s BSUID and username, and a failed status without contacts or BSUID', () => {
    // Prepare
    const failed = change('messages', {
      metadata,
      statuses: [{ id: 'wamid.out-2', status: 'failed', timestamp: '1780000000', recipient_id: PHONE, errors: [{ code: 131049 }] }],
    });
    // Act
    const [ok] = notificationsOf(delivered(PHONE, BSUID));
    const [bad] = notificationsOf(failed);
    // Assess
    expect(ok).toMatchObject({ kind: 'message_status', recipient: PHONE, recipient_user_id: BSUID, username: 'ana.mx' });
    expect(bad).toMatchObject({ kind: 'message_status', status: 'failed', recipient: PHONE });
    expect(bad).not.toHaveProperty('recipient_user_id');
    expect(bad).not.toHaveProperty('username');
  });

  it('reads an inbound message without `from` (a username user), the pairs an inbound change’s contacts show, and a message not text', () => {
    // Prepare
    const withPhone = change('messages', {
      metadata,
      contacts: [{ profile: { name: 'Ana' }, wa_id: PHONE, user_id: BSUID }],
      messages: [{ from: PHONE, from_user_id: BSUID, id: 'wamid.in-2', type: 'image', image: { id: 'm1' } }],
    });
    // Act
    const [message] = notificationsOf(stop({ from_user_id: BSUID }));
    const seen = notificationsOf(withPhone);
    // Assess
    expect(message).toMatchObject({ kind: 'inbound_message', user_id: BSUID, username: 'ana.mx', text: 'STOP', number_digits: NUMBER });
    expect(message).not.toHaveProperty('from');
    // An image is no keyword, but a person's message all the same: it may answer a send (decisions §33)
    expect(seen).toEqual([
      { kind: 'people_seen', waba_id: WABA, number_digits: NUMBER, at: expect.any(Number), people: [{ phone: PHONE, user_id: BSUID }] },
      expect.objectContaining({ kind: 'inbound_message', from: PHONE, user_id: BSUID, message_id: 'wamid.in-2' }),
    ]);
    expect(seen[1]).not.toHaveProperty('text');
  });

  it('reads the system messages and `user_id_update` as moves, and `user_preferences` as marketing stopped or resumed', () => {
    // Prepare
    const changedId = change('messages', {
      metadata,
      messages: [
        {
          from: PHONE,
          id: 'wamid.sys-1',
          timestamp: '1780000200',
          type: 'system',
          system: { body: `User Ana changed from ${BSUID} to MX.2`, user_id: 'MX.2', type: 'user_changed_user_id' },
        },
      ],
    });
    const update = change('user_id_update', {
      messaging_product: 'whatsapp',
      metadata,
      user_id_update: [{ wa_id: PHONE, user_id: { previous: 'MX.2', current: 'MX.3' }, timestamp: '1780000300' }],
    });
    const preferences = change('user_preferences', {
      metadata,
      user_preferences: [{ user_id: BSUID, category: 'marketing_messages', value: 'stop', timestamp: '1780000400' }],
    });
    // Act
    const [moved] = notificationsOf(changedId);
    const [updated] = notificationsOf(update);
    const [preference] = notificationsOf(preferences);
    // Assess
    expect(moved).toMatchObject({
      kind: 'person_move',
      change: 'user_changed_user_id',
      from: { phone: PHONE, user_id: BSUID },
      to: { user_id: 'MX.2' },
    });
    expect(updated).toMatchObject({
      kind: 'person_move',
      change: 'user_id_update',
      from: { phone: PHONE, user_id: 'MX.2' },
      to: { user_id: 'MX.3' },
    });
    expect(preference).toMatchObject({ kind: 'marketing_preference', user_id: BSUID, value: 'stop', number_digits: NUMBER });
  });
});

describe('the people map learns from a batch and consent follows the person (decisions §28)', () => {
  it('learns a status’s pair once per batch; a STOP with no phone number then suppresses the BSUID and its number', async () => {
    // Prepare: a delivered status named the pair
    const world = memoryWorld();
    await apply(world, notificationsOf(delivered(PHONE, BSUID)));
    const writesAfterFirst = world.peopleMap.writes;
    await apply(world, [...notificationsOf(delivered(PHONE, BSUID)), ...notificationsOf(delivered(PHONE, BSUID))]);
    // Act
    await apply(world, notificationsOf(stop({ from_user_id: BSUID })));
    // Assess
    expect(writesAfterFirst).toBe(2);
    expect(world.peopleMap.writes).toBe(2);
    expect(await getSuppression(world, agent, PHONE)).toMatchObject({ phone: PHONE, user_id: BSUID, source: 'inbound' });
    expect(await getSuppression(world, agent, BSUID)).toMatchObject({ user_id: BSUID, source: 'inbound' });
    expect([...(await suppressedPeople(world, 7, WABA, [{ phone: PHONE }, { phone: '5215599999999' }]))]).toEqual([0]);
  });

  it('user_preferences stop suppresses the person by BSUID and paired number; resume takes both off', async () => {
    // Prepare
    const world = memoryWorld();
    await world.peopleMap.learn(SCOPE, [{ phone: PHONE, user_id: BSUID, at: LEARNED, taught_by: 7 }]);
    const preference = (value: string) =>
      change('user_preferences', {
        metadata,
        user_preferences: [{ user_id: BSUID, category: 'marketing_messages', value, timestamp: '1780000400' }],
      });
    // Act
    await apply(world, notificationsOf(preference('stop')));
    const stopped = await getSuppression(world, agent, PHONE);
    await apply(world, notificationsOf(preference('resume')));
    const resumed = await getSuppression(world, agent, PHONE).catch((e) => e);
    // Assess
    expect(stopped).toMatchObject({ phone: PHONE, source: 'meta_preferences' });
    expect(resumed).toBeInstanceOf(NotFound);
  });

  it('after user_changed_user_id, a STOP from the new BSUID suppresses the person’s phone number', async () => {
    // Prepare: the pair known; then Meta says the person has a new BSUID
    const world = memoryWorld();
    await world.peopleMap.learn(SCOPE, [{ phone: PHONE, user_id: BSUID, at: LEARNED, taught_by: 7 }]);
    const moved = change('messages', {
      metadata,
      messages: [
        {
          id: 'wamid.sys-2',
          timestamp: '1780000200',
          type: 'system',
          system: { body: `User Ana changed from ${BSUID} to MX.NEW1`, user_id: 'MX.NEW1', type: 'user_changed_user_id' },
        },
      ],
    });
    await apply(world, notificationsOf(moved));
    // Act
    await apply(world, notificationsOf(stop({ from_user_id: 'MX.NEW1' })));
    // Assess
    expect(await getSuppression(world, agent, PHONE)).toMatchObject({ phone: PHONE, user_id: 'MX.NEW1' });
    expect(world.peopleMap.recordOf(SCOPE, `p:${PHONE}`)).toMatchObject({
      user_id: 'MX.NEW1',
      history: [{ phone: PHONE, user_id: BSUID }],
    });
  });

  it('a MARKETING send skips a number whose BSUID opted out, reading a hundred keys a BatchGetItem', async () => {
    // Prepare: summer_promo (MARKETING) approved; 250 recipients, one of whom is known by BSUID to have opted out
    const world = memoryWorld();
    world.emulator.model.findTemplate('9003')!.template.status = 'APPROVED';
    for (const record of world.templateTable.records.values())
      if (record.meta_template.id === '9003') record.meta_template = { ...record.meta_template, status: 'APPROVED' };
    const recipients = Array.from({ length: 250 }, (_, i) => `52155${String(i).padStart(8, '0')}`);
    await world.peopleMap.learn(SCOPE, [{ phone: recipients[7], user_id: BSUID, at: AT, taught_by: 7 }]);
    await world.suppressions.add(7, { user_id: BSUID, source: 'inbound', at: AT });
    world.peopleMap.batches.length = 0;
    // Act
    await sendTemplate({ ...world, now: () => AT }, agent, {
      pathDid: NUMBER,
      sendId: 's-people',
      body: {
        did: NUMBER,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'summer_promo', language: 'en_US' },
        recipients: recipients.map((to) => ({ to, params: { header: ['Ana'], body: ['20%'] } })),
      },
    });
    // Assess
    expect(await getSend(world, agent, 's-people')).toMatchObject({ total: 250, suppressed: 1 });
    expect(world.peopleMap.batches).toEqual([100, 100, 50]);
    expect(world.suppressions.batches).toEqual([100, 100, 51]);
  });

  it('POST /v1/suppressions takes phone, user_id or both (400 for neither); DELETE by either removes both halves', async () => {
    // Prepare
    const world = memoryWorld();
    // Act
    const neither = await addSuppression(world, agent, {}).catch((e) => e);
    const badId = await addSuppression(world, agent, { user_id: 'not-a-bsuid' }).catch((e) => e);
    const both = await addSuppression({ ...world, now: () => AT }, agent, { phone: `+${PHONE}`, user_id: BSUID, reason: 'asked' });
    const removed = await removeSuppression(world, agent, BSUID);
    const gone = await getSuppression(world, agent, PHONE).catch((e) => e);
    // Assess
    expect(neither).toBeInstanceOf(InvalidRequest);
    expect(badId).toBeInstanceOf(InvalidRequest);
    expect(both).toMatchObject({ created: true, phone: PHONE, user_id: BSUID, source: 'api', reason: 'asked' });
    expect(removed).toEqual({ client_id: 7, user_id: BSUID, removed: true });
    expect(gone).toBeInstanceOf(NotFound);
  });
});
