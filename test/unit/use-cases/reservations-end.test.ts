import { describe, expect, it } from 'vitest';
import { setBudget } from '#lib/domain/money/budget.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { recipientEstimate, reservationFor } from '#lib/domain/money/pricing/reservation.ts';
import { cancelSend } from '#lib/domain/sends/operations/cancel-send.ts';
import { releaseScheduledSend } from '#lib/domain/sends/operations/release-send.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { getSend } from '#lib/domain/sends/send-status.ts';
import { UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';
import { dispatcherOf } from '../../support/memory/dispatcher.ts';

/** Reservations always end (decisions §30, issue 51 item 6), on in-memory adapters. */
const acme = callerOf(7);
const bsp = { ...callerOf(7), isBsp: true };
const NOW = '2026-11-25T10:00:00.000Z';
const LATER = '2026-11-25T12:00:00.000Z';

function reservationWorld() {
  const world = memoryWorld();
  const template = world.emulator.model.findTemplate('9002')!.template;
  const variables = new Set(JSON.stringify(template.components).match(/\{\{\d+\}\}/g)).size;
  const deps = { ...world, now: () => NOW };
  let n = 0;
  /** A send to these numbers, each with its values. */
  const sendTo = (numbers: string[], sendAt?: string) =>
    sendTemplate(deps, acme, {
      pathDid: '5215550001',
      sendId: `s-${n++}`,
      body: {
        did: '5215550001',
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'order_update', language: 'es' },
        ...(sendAt && { send_at: sendAt }),
        recipients: numbers.map((to) => ({ to, params: { body: Array.from({ length: variables }, () => 'v') } })),
      },
    });
  /** A send of `count` Mexican numbers (0.0085 USD each at UTILITY from 2026-10-01). */
  const send = (count: number, sendAt?: string) =>
    sendTo(
      Array.from({ length: count }, (_, i) => `52155${n}${String(i).padStart(4, '0')}`),
      sendAt,
    );
  const release = (sendId: string) => releaseScheduledSend({ ...world, log: silentLog }, sendId);
  return { world, deps, send, sendTo, release };
}

describe('a reservation ends (decisions §30)', () => {
  it('at the cancel of a scheduled send, not at its send_at: the budget has room again at once', async () => {
    // Prepare: a budget of 1 USD; 100 recipients scheduled (0.85 USD reserved)
    const { world, deps, send } = reservationWorld();
    await setBudget(deps, bsp, 7, { monthly_amount: 1 });
    await send(100, LATER);
    const refusedBefore = await send(50).catch((e: unknown) => e);
    // Act
    await cancelSend(deps, acme, 's-0');
    const next = await send(50);
    // Assess
    expect(refusedBefore).toMatchObject({ reason: 'budget_exceeded' });
    expect(next).toMatchObject({ success: true });
    expect(await world.budgets.month(7, '2026-11')).toMatchObject({ reserved: 1_275_000, released: 850_000 });
    expect(await getSend(world, acme, 's-0')).toMatchObject({ status: 'cancelled', cancelled: 100, pending: 0 });
  });

  it('once only: a second cancel and the release at its time give back nothing more, and send nothing', async () => {
    // Prepare
    const { world, deps, send, release } = reservationWorld();
    await send(10, LATER);
    await cancelSend(deps, acme, 's-0');
    // Act
    await cancelSend(deps, acme, 's-0');
    const released = await release('s-0');
    // Assess
    expect(released).toBe('cancelled');
    expect(world.queue.sent).toEqual([]);
    expect(await world.budgets.month(7, '2026-11')).toMatchObject({ reserved: 85_000, released: 85_000 });
    expect(await getSend(world, acme, 's-0')).toMatchObject({ cancelled: 10 });
  });
});

describe('a reservation ends at the cancel of a send that is not scheduled (decisions §30)', () => {
  it('at once, not as the dispatcher takes each job off the queue: the budget has room again', async () => {
    // Prepare: a budget of 1 USD; 100 recipients queued now (0.85 USD reserved), none taken by a dispatcher
    const { world, deps, send } = reservationWorld();
    await setBudget(deps, bsp, 7, { monthly_amount: 1 });
    await send(100);
    const refusedBefore = await send(50).catch((e: unknown) => e);
    // Act
    await cancelSend(deps, acme, 's-0');
    const next = await send(50);
    // Assess
    expect(refusedBefore).toMatchObject({ reason: 'budget_exceeded' });
    expect(next).toMatchObject({ success: true });
    expect(await world.budgets.month(7, '2026-11')).toMatchObject({ reserved: 1_275_000, released: 850_000 });
    expect(await getSend(world, acme, 's-0')).toMatchObject({ status: 'cancelled', cancelled: 100, pending: 0 });
  });

  it('once only: a second cancel and the dispatcher taking the job later give back nothing more, and send nothing', async () => {
    // Prepare
    const { world, deps, send } = reservationWorld();
    await send(10);
    const { launched, dispatch } = dispatcherOf(world, NOW);
    await cancelSend(deps, acme, 's-0');
    // Act
    await cancelSend(deps, acme, 's-0');
    const taken = await dispatch(world.queue.sent[0]);
    // Assess
    expect(taken).toEqual({ outcome: 'done' });
    expect(launched).toEqual([]);
    expect(await world.budgets.month(7, '2026-11')).toMatchObject({ reserved: 85_000, released: 85_000 });
    expect(await getSend(world, acme, 's-0')).toMatchObject({ cancelled: 10, pending: 0 });
  });

  it('leaves a job a dispatcher has begun to it: that job gives back its unsent part as it settles, once', async () => {
    // Prepare: the send's one job begun by a dispatcher before the cancel
    const { world, deps, send } = reservationWorld();
    await send(10);
    await world.blocks.beginJob('s-0', 1);
    // Act
    await cancelSend(deps, acme, 's-0');
    const atCancel = await world.budgets.month(7, '2026-11');
    await dispatcherOf(world, NOW).dispatch(world.queue.sent[0]);
    // Assess: nothing at the cancel; the dispatcher settles the ten cancelled and gives back their part
    expect(atCancel).toMatchObject({ released: 0 });
    expect(await world.budgets.month(7, '2026-11')).toMatchObject({ reserved: 85_000, released: 85_000 });
    expect(await getSend(world, acme, 's-0')).toMatchObject({ cancelled: 10, pending: 0 });
  });

  it('does not give back the part of repeated recipients, which reserved nothing', async () => {
    // Prepare: three recipients, the third a repeat of the first
    const { world, deps, sendTo } = reservationWorld();
    await sendTo(['521559990001', '521559990002', '521559990001']);
    const reserved = (await world.budgets.month(7, '2026-11')).reserved;
    // Act
    await cancelSend(deps, acme, 's-0');
    // Assess: what was reserved (two recipients) is what comes back
    expect(reserved).toBe(17_000);
    expect(await world.budgets.month(7, '2026-11')).toMatchObject({ released: 17_000 });
  });
});

describe('a reservation ends when a send fails before its jobs are queued (decisions §30)', () => {
  it('gives back everything at the acceptance that failed, once: the release at its time gives back nothing more', async () => {
    // Prepare: the scheduler unreachable, so the scheduled send is abandoned
    const { world, send, release } = reservationWorld();
    world.scheduler.failing = true;
    const refused = await send(10, LATER).catch((e: unknown) => e);
    const atFailure = await world.budgets.month(7, '2026-11');
    // Act: the schedule was made after all (its answer lost), and fires at its time
    const released = await release('s-0');
    // Assess
    expect(refused).toBeInstanceOf(UpstreamUnavailable);
    expect(atFailure).toMatchObject({ reserved: 85_000, released: 85_000 });
    expect(released).toBe('skipped');
    expect(await world.budgets.month(7, '2026-11')).toMatchObject({ reserved: 85_000, released: 85_000 });
    expect(await world.sends.get('s-0')).toMatchObject({ status: 'abandoned', reservation_returned_at: NOW });
  });

  it('gives back everything when the release finds the send still `queuing` after its acceptance died, once', async () => {
    // Prepare: the acceptance dies after the schedule was made, before the send is `queued` or anything given back
    const { world, send } = reservationWorld();
    const { settle } = world.sends;
    const { returnWhole } = world.reservationReturns;
    world.sends.settle = () => Promise.reject(new Error('killed'));
    world.reservationReturns.returnWhole = () => Promise.reject(new Error('killed'));
    await send(10, LATER).catch(() => undefined);
    Object.assign(world.sends, { settle });
    Object.assign(world.reservationReturns, { returnWhole });
    const leaked = await world.budgets.month(7, '2026-11');
    const releaseAt = (now: string) => releaseScheduledSend({ ...world, log: silentLog, now: () => now }, 's-0');
    // Act
    const early = await releaseAt('2026-11-25T10:00:30.000Z');
    const first = await releaseAt(LATER);
    const again = await releaseAt(LATER);
    // Assess
    expect(leaked).toMatchObject({ reserved: 85_000, released: 0 });
    expect(early).toBe('retry_later');
    expect([first, again]).toEqual(['skipped', 'skipped']);
    expect(await world.budgets.month(7, '2026-11')).toMatchObject({ reserved: 85_000, released: 85_000 });
    expect(world.queue.sent).toEqual([]);
  });
});

describe('an AUTHENTICATION reservation (decisions §30)', () => {
  const egypt = '201001234567';
  const mexico = '5215550001';
  const rate = (digits: string, category: 'authentication' | 'authentication_international') =>
    rateCards.priceMicros(rateCards.placeOfPerson(digits, '2026-11-25').market, category, '2026-11-25');

  it('reserves at the authentication-international rate where the card has one, so no charge exceeds it', () => {
    // Prepare
    const reservation = reservationFor('AUTHENTICATION', NOW, 'USD');
    // Act
    const inEgypt = recipientEstimate(reservation, egypt);
    // Assess: Egypt's international rate (0.065 USD) is many times its authentication rate
    expect(inEgypt).toBe(rate(egypt, 'authentication_international'));
    expect(inEgypt).toBeGreaterThan(rate(egypt, 'authentication'));
  });

  it('reserves at the authentication rate where the market has no international one, and other categories as before', () => {
    // Prepare
    const authentication = reservationFor('AUTHENTICATION', NOW, 'USD');
    const utility = reservationFor('UTILITY', NOW, 'USD');
    // Act
    const inMexico = recipientEstimate(authentication, mexico);
    const utilityInEgypt = recipientEstimate(utility, egypt);
    // Assess
    expect(inMexico).toBe(rate(mexico, 'authentication'));
    expect(utilityInEgypt).toBe(rateCards.priceMicros('Egypt', 'utility', '2026-11-25'));
    expect(utility).not.toHaveProperty('international_bound');
  });

  it('keeps the figure of a reservation made before the bound, so what it gives back is what it took', () => {
    // Prepare: a reservation as recorded before issue 51
    const { international_bound: _, ...before } = reservationFor('AUTHENTICATION', NOW, 'USD');
    // Act
    const inEgypt = recipientEstimate(before, egypt);
    // Assess
    expect(inEgypt).toBe(rate(egypt, 'authentication'));
  });
});
