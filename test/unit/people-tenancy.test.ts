import { describe, expect, it } from 'vitest';
import { notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';
import { applyNotifications } from '#lib/domain/inbound/meta-notifications.ts';
import type { NotifiedChange } from '#lib/domain/inbound/notifications.ts';
import { dryRunSend } from '#lib/domain/sends/accept/dry-run.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { addSuppression, getSuppression } from '#lib/domain/people/suppression.ts';
import { callerOf, type MemoryWorld, memoryWorld } from '../support/memory/world.ts';

/**
 * Who sees what of the people map (decisions §32, issue 52 item 1): clients 7 and 8 share WABA 100200300 (portfolio
 * 555), each with its own number; the map serves a client only the pairs its own numbers' traffic showed, and a
 * dry run names a suppressed recipient by what its caller sent.
 */
const WABA = '100200300';
const SCOPE = '555';
const ACME_NUMBER = '5215550001';
const BETA_NUMBER = '5215550011';
const PHONE = '5215512349001';
const BSUID = 'MX.52900100200300';
const acme = callerOf(7);
const AT = '2026-11-26T10:00:00.000Z';
const params = { header: ['Ana'], body: ['20%'] };

const change = (number: string, value: Record<string, unknown>): NotifiedChange => ({
  waba_id: WABA,
  at: 1_780_000_000_000,
  field: 'messages',
  value: { messaging_product: 'whatsapp', metadata: { display_phone_number: number, phone_number_id: `id-${number}` }, ...value },
});
/** A delivered status of a message one of the numbers sent, naming both halves of the person. */
const deliveredTo = (number: string) =>
  change(number, {
    contacts: [{ profile: { name: 'Ana' }, wa_id: PHONE, user_id: BSUID }],
    statuses: [{ id: `wamid.${number}`, status: 'delivered', timestamp: '1780000000', recipient_id: PHONE, recipient_user_id: BSUID }],
  });
const apply = (world: MemoryWorld, notifications: ReturnType<typeof notificationsOf>) =>
  applyNotifications(
    world,
    notifications.map((notification) => ({ notification })),
  );

function approvePromo(world: MemoryWorld) {
  world.emulator.model.findTemplate('9003')!.template.status = 'APPROVED';
  for (const record of world.templateTable.records.values())
    if (record.meta_template.id === '9003') record.meta_template = { ...record.meta_template, status: 'APPROVED' };
}

/** Acme's MARKETING dry run to these recipients, as the request gave them. */
const acmeDryRun = (world: MemoryWorld, recipients: Record<string, unknown>[]) =>
  dryRunSend({ ...world, now: () => AT }, acme, {
    pathDid: ACME_NUMBER,
    body: { did: ACME_NUMBER, type: 'template', channel: 'MSGCHAN', template: { name: 'summer_promo', language: 'en_US' } },
    recipients: recipients.map((recipient, index) => ({ index, recipient: { ...recipient, params } as never })),
    refused: [],
    total: recipients.length,
  });

describe('the people map serves a client only what its own numbers showed (decisions §32)', () => {
  it('a BSUID Acme suppressed, paired by Beta’s traffic only: Acme’s dry run to candidate numbers names none of them', async () => {
    // Prepare: Beta's number delivered to the person (the map learns the pair); Acme suppresses the BSUID
    const world = memoryWorld();
    approvePromo(world);
    await apply(world, notificationsOf(deliveredTo(BETA_NUMBER)));
    await addSuppression(world, acme, { user_id: BSUID });
    // Act
    const answer = await acmeDryRun(world, [{ to: '+52 1 55 1234 9000' }, { to: `+${PHONE}` }, { to: '+52 1 55 1234 9002' }]);
    // Assess: the pair is kept as Beta's, and Acme's answer says nothing of who is behind the BSUID
    expect(world.peopleMap.recordOf(SCOPE, `u:${BSUID}`)).toMatchObject({ phone: PHONE, taught_by: [8] });
    expect(answer).not.toHaveProperty('suppressed');
    expect(answer).toMatchObject({ total: 3, valid: 3 });
  });

  it('the same pair once Acme’s own number showed it: the dry run names the recipient by what Acme sent and its place', async () => {
    // Prepare
    const world = memoryWorld();
    approvePromo(world);
    await apply(world, notificationsOf(deliveredTo(BETA_NUMBER)));
    await apply(world, notificationsOf(deliveredTo(ACME_NUMBER)));
    await addSuppression(world, acme, { user_id: BSUID });
    // Act
    const answer = await acmeDryRun(world, [{ to: '+52 1 55 1234 9000' }, { to: `+52 1 55 1234 9001` }]);
    // Assess: by position and the caller's own spelling, never with the BSUID the map pairs it with
    expect(world.peopleMap.recordOf(SCOPE, `p:${PHONE}`)?.taught_by).toEqual([8, 7]);
    expect(answer.suppressed).toEqual([{ index: 1, to: '+52 1 55 1234 9001' }]);
  });

  it('a send finds repeats only by Acme’s own pairs: a BSUID and the number Beta paired it with are two recipients', async () => {
    // Prepare
    const world = memoryWorld();
    await apply(world, notificationsOf(deliveredTo(BETA_NUMBER)));
    await world.peopleMap.learn(SCOPE, [{ phone: '5215512349005', user_id: 'MX.529005', at: AT, taught_by: 7 }]);
    const recipients = [{ to: `+${PHONE}` }, { user_id: BSUID }, { to: '+5215512349005' }, { user_id: 'MX.529005' }];
    // Act
    await sendTemplate({ ...world, now: () => AT }, acme, {
      pathDid: ACME_NUMBER,
      sendId: 's-tenancy',
      body: {
        did: ACME_NUMBER,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'order_update', language: 'en_US' },
        recipients: recipients.map((r, i) => ({ ...r, params: { body: [`A-${i}`] } })) as never,
      },
    });
    // Assess: Beta's pair is two people to Acme, Acme's own pair one; the repeat travels as Acme gave it
    const [job] = world.queue.sent as unknown as DispatchJob[];
    expect(job.recipients.map((r) => r.duplicate_of)).toEqual([undefined, undefined, undefined, 2]);
    expect(job.recipients[3]).toEqual({ user_id: 'MX.529005', duplicate_of: 2 });
  });

  it('a STOP by BSUID to Acme’s number suppresses only the BSUID when only Beta’s traffic paired it', async () => {
    // Prepare
    const world = memoryWorld();
    await apply(world, notificationsOf(deliveredTo(BETA_NUMBER)));
    const stop = change(ACME_NUMBER, {
      contacts: [{ profile: { name: 'Ana' }, user_id: BSUID }],
      messages: [{ from_user_id: BSUID, id: 'wamid.in-stop', timestamp: '1780000100', type: 'text', text: { body: 'STOP' } }],
    });
    // Act
    await apply(world, notificationsOf(stop));
    // Assess
    expect(await getSuppression(world, acme, BSUID)).not.toHaveProperty('phone');
    await expect(getSuppression(world, acme, PHONE)).rejects.toThrow(/not on the client's suppression list/);
  });

  it('a move told by Acme’s number never completes a pair from Beta’s traffic', async () => {
    // Prepare: Beta knows the pair; Meta tells Acme's number the person has a new BSUID (no phone number shown)
    const world = memoryWorld();
    await apply(world, notificationsOf(deliveredTo(BETA_NUMBER)));
    const moved = change(ACME_NUMBER, {
      messages: [
        {
          id: 'wamid.sys',
          timestamp: '1780000200',
          type: 'system',
          system: { body: `User Ana changed from ${BSUID} to MX.529NEW`, user_id: 'MX.529NEW', type: 'user_changed_user_id' },
        },
      ],
    });
    // Act
    await apply(world, notificationsOf(moved));
    // Assess: nothing learned of the new BSUID; Beta's pair stays Beta's
    expect(world.peopleMap.recordOf(SCOPE, 'u:MX.529NEW')).toBeUndefined();
    expect((await world.peopleMap.pairsOf(SCOPE, [{ user_id: BSUID }], 8)).get(`u:${BSUID}`)?.phone).toBe(PHONE);
  });
});

describe('the people map’s provenance (decisions §32)', () => {
  it('keeps writes at zero for a known pair, writes once for a new client, and serves a record without provenance to none', async () => {
    // Prepare: a record kept before provenance (no taught_by)
    const world = memoryWorld();
    const map = world.peopleMap;
    await map.learn(SCOPE, [{ phone: '5215512349010', user_id: 'MX.529010', at: AT }]);
    // Act
    const first = await map.learn(SCOPE, [{ phone: PHONE, user_id: BSUID, at: AT, taught_by: 8 }]);
    const again = await map.learn(SCOPE, [{ phone: PHONE, user_id: BSUID, at: AT, taught_by: 8 }]);
    const older = await map.learn(SCOPE, [{ phone: PHONE, user_id: BSUID, at: '2026-11-01T00:00:00.000Z', taught_by: 7 }]);
    const toAcme = await map.pairsOf(SCOPE, [{ phone: PHONE }, { phone: '5215512349010' }], 7);
    const toGamma = await map.pairsOf(SCOPE, [{ phone: PHONE }, { phone: '5215512349010' }], 9);
    const unfiltered = await map.pairsOf(SCOPE, [{ phone: '5215512349010' }]);
    // Assess: older news still teaches its client the pair, without moving the record's time
    expect([first, again, older]).toEqual([2, 0, 2]);
    expect(map.recordOf(SCOPE, `p:${PHONE}`)).toMatchObject({ at: AT, taught_by: [8, 7] });
    expect([...toAcme.keys()]).toEqual([`p:${PHONE}`]);
    expect(toGamma.size).toBe(0);
    expect(unfiltered.get('p:5215512349010')?.user_id).toBe('MX.529010');
  });

  it('a changed pair is known only to the client whose number showed it', async () => {
    // Prepare
    const world = memoryWorld();
    const map = world.peopleMap;
    await map.learn(SCOPE, [{ phone: PHONE, user_id: BSUID, at: AT, taught_by: 7 }]);
    await map.learn(SCOPE, [{ phone: PHONE, user_id: BSUID, at: AT, taught_by: 8 }]);
    // Act
    await map.learn(SCOPE, [{ phone: PHONE, user_id: 'MX.529OTHER', at: '2026-11-27T00:00:00.000Z', taught_by: 8 }]);
    // Assess
    expect((await map.pairsOf(SCOPE, [{ phone: PHONE }], 7)).size).toBe(0);
    expect((await map.pairsOf(SCOPE, [{ phone: PHONE }], 8)).get(`p:${PHONE}`)?.user_id).toBe('MX.529OTHER');
    expect((await map.pairsOf(SCOPE, [{ user_id: BSUID }], 7)).get(`u:${BSUID}`)?.phone).toBe(PHONE);
  });
});
