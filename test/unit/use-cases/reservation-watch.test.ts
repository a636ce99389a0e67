import { describe, expect, it } from 'vitest';
import { recipientEstimate } from '#lib/domain/money/pricing/reservation.ts';
import { endReservations, FIRST_LOOK_MS } from '#lib/domain/sends/operations/reservation-watch.ts';
import { reserveBudget } from '#lib/domain/money/budget.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { statusChange } from '#lib/domain/shared/message-status.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';
import { dispatcherOf } from '../../support/memory/dispatcher.ts';

/**
 * Reservations always end (decisions §30), through each reservation's watch (sends/operations/reservation-watch.ts)
 * on the in-memory stores, on a clock the test moves: at a TTL's end, after a crash before the send was recorded,
 * and for a send that was never queued.
 */
const acme = callerOf(7);
const NOW = '2026-11-25T10:00:00.000Z';
const TTL_END = '2026-12-25T10:00:00.000Z';
const PRICE = 8_500;

/** A send of `count` Mexican numbers, accepted and launched at NOW (each answered `sent`), on an event clock. */
/** A send's body of `count` Mexican numbers for the utility template order_update, with `extra` options. */
function sendBody(world: ReturnType<typeof memoryWorld>, count: number, extra: Record<string, unknown> = {}) {
  const template = world.emulator.model.findTemplate('9002')!.template;
  const variables = new Set(JSON.stringify(template.components).match(/\{\{\d+\}\}/g)).size;
  const recipients = Array.from({ length: count }, (_, i) => ({
    to: `521555${String(i).padStart(4, '0')}`,
    params: { body: Array.from({ length: variables }, () => 'v') },
  }));
  return {
    did: '5215550001',
    type: 'template' as const,
    channel: 'MSGCHAN' as const,
    template: { name: 'order_update', language: 'es' },
    recipients,
    ...extra,
  };
}

async function sentWorld(count: number, ttlSeconds?: number) {
  const world = memoryWorld();
  let clock = Date.parse(NOW);
  const now = () => new Date(clock).toISOString();
  const body = sendBody(world, count, ttlSeconds === undefined ? {} : { message_send_ttl_seconds: ttlSeconds });
  const { recipients } = body;
  await sendTemplate({ ...world, now }, acme, { pathDid: '5215550001', sendId: 's-0', body });
  await dispatchAll(world);
  return {
    world,
    /** The EndReservations job's run at the clock's time. */
    lookAtWatches: () => endReservations(world, now()),
    advanceTo: (iso: string) => {
      clock = Date.parse(iso);
    },
    /** Meta's delivered status of the message at `index`, priced at PRICE, with its part of the reservation. */
    deliver: async (index: number) => {
      const send = (await world.sends.get('s-0'))!;
      const charge = { pricing: { category: 'utility', type: 'regular', billable: true }, micros: PRICE, currency: 'USD', market: 'MX' };
      const reserved = { month: send.reservation!.month, micros: recipientEstimate(send.reservation!, recipients[index].to) };
      return world.messageStatuses.applyStatuses('s-0', [
        {
          block: 0,
          index,
          messageId: `wamid.${index + 1}`,
          change: (s) => statusChange(s, 'delivered', undefined, charge),
          chargedAt: clock,
          reserved,
        },
      ]);
    },
  };
}

/** Every queued job through the dispatcher, each message accepted as `wamid.<n>`. */
async function dispatchAll(world: ReturnType<typeof memoryWorld>) {
  const { dispatch } = dispatcherOf(world, NOW);
  for (const job of world.queue.sent.splice(0)) await dispatch(job);
}

/** The client's November: reserved and not given back, and spent (December's spent too: a late delivered). */
async function books(world: ReturnType<typeof memoryWorld>) {
  const month = await world.budgets.month(7, '2026-11');
  const december = await world.budgets.month(7, '2026-12');
  return { outstanding: month.reserved - month.released, released: month.released, spent: month.spent + december.spent };
}

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

describe('a message never settled gives back its reservation at its TTL end (decisions §30)', () => {
  it('is looked at after the acceptance, and gives back nothing while its messages are within their TTL', async () => {
    // Prepare
    const { world, lookAtWatches, advanceTo } = await sentWorld(3);
    advanceTo(plus(NOW, FIRST_LOOK_MS));
    // Act
    const run = await lookAtWatches();
    // Assess: filed again for the TTL's end (Meta's default, 30 days), nothing given back
    expect(run).toEqual({ refiled: 1 });
    expect([...world.budgets.watches.values()].map((w) => w.due_at)).toEqual([TTL_END]);
    expect((await books(world)).released).toBe(0);
  });

  it('gives back the unsettled messages once; a late delivered is charged and releases nothing more', async () => {
    // Prepare: 4 messages sent, one delivered before the TTL end
    const { world, lookAtWatches, advanceTo, deliver } = await sentWorld(4);
    expect(await deliver(0)).toEqual(['applied']);
    advanceTo(plus(NOW, FIRST_LOOK_MS));
    await lookAtWatches();
    advanceTo(TTL_END);
    // Act: the job at the TTL's end (twice), then a late delivered of a message given back
    const first = await lookAtWatches();
    const second = await lookAtWatches();
    expect(await deliver(1)).toEqual(['applied']);
    // Assess: three parts given back once, the watch gone, the late one charged
    expect(first).toEqual({ returned_at_ttl: 1 });
    expect(second).toEqual({});
    expect(world.budgets.watches.size).toBe(0);
    expect(await books(world)).toMatchObject({ outstanding: 0, spent: 2 * PRICE });
  });

  it('counts the TTL the send asked for, from when each message was last heard of', async () => {
    // Prepare: a TTL of 10 minutes, shorter than the first look
    const { world, lookAtWatches, advanceTo } = await sentWorld(2, 600);
    advanceTo(plus(NOW, FIRST_LOOK_MS));
    // Act
    const run = await lookAtWatches();
    // Assess
    expect(run).toEqual({ returned_at_ttl: 1 });
    expect((await books(world)).outstanding).toBe(0);
  });
});

describe('a reservation whose send never came to be ends (decisions §30)', () => {
  it('a crash between reserving and recording: the watch gives the whole back once, after the acceptance could end', async () => {
    // Prepare: reserved with its watch, and nothing else (the process died there)
    const world = memoryWorld();
    await reserveBudget(world, 7, 25_000, '2026-11', { send_id: 's-lost', due_at: plus(NOW, FIRST_LOOK_MS) });
    // Act
    const early = await endReservations(world, NOW);
    const due = await endReservations(world, plus(NOW, FIRST_LOOK_MS));
    const again = await endReservations(world, plus(NOW, 2 * FIRST_LOOK_MS));
    // Assess
    expect(early).toEqual({});
    expect(due).toEqual({ returned_unrecorded: 1 });
    expect(again).toEqual({});
    expect(await books(world)).toMatchObject({ outstanding: 0, released: 25_000 });
  });

  it('a send recorded and never queued, whose acceptance died before giving back: the whole back once', async () => {
    // Prepare: the queue fails, and the acceptance's own give-back fails too (it died)
    const world = memoryWorld();
    world.queue.failing = true;
    world.reservationReturns.returnWhole = async () => {
      throw new Error('the process died');
    };
    const { MemoryReservationReturns } = await import('../../support/memory/sends/reservation-returns.ts');
    const body = sendBody(world, 1);
    await expect(sendTemplate({ ...world, now: () => NOW }, acme, { pathDid: '5215550001', sendId: 's-q', body })).rejects.toThrow();
    const reserved = (await world.budgets.month(7, '2026-11')).reserved;
    const deps = { ...world, reservationReturns: new MemoryReservationReturns(world.sendTable) };
    // Act: the job, twice
    const first = await endReservations(deps, plus(NOW, FIRST_LOOK_MS));
    const second = await endReservations(deps, plus(NOW, 2 * FIRST_LOOK_MS));
    // Assess
    expect(reserved).toBeGreaterThan(0);
    expect((await world.sends.get('s-q'))?.status).toBe('abandoned');
    expect(first).toEqual({ returned_whole: 1 });
    expect(second).toEqual({});
    expect(await books(world)).toMatchObject({ outstanding: 0, released: reserved });
  });

  it('a scheduled send is looked at again after its time', async () => {
    // Prepare: a send for a day ahead
    const world = memoryWorld();
    const sendAt = '2026-11-26T10:00:00.000Z';
    const body = sendBody(world, 1, { send_at: sendAt });
    await sendTemplate({ ...world, now: () => NOW }, acme, { pathDid: '5215550001', sendId: 's-later', body });
    // Act
    const run = await endReservations(world, plus(NOW, FIRST_LOOK_MS));
    // Assess
    expect(run).toEqual({ refiled: 1 });
    expect(world.budgets.watches.get('s-later')?.due_at).toBe(plus(sendAt, FIRST_LOOK_MS));
  });

  it('a watch that fails stays due for the next run; the others go on', async () => {
    // Prepare: two reservations of crashed acceptances; the read of one send fails this run
    const world = memoryWorld();
    const due = plus(NOW, FIRST_LOOK_MS);
    await reserveBudget(world, 7, 1_000, '2026-11', { send_id: 's-a', due_at: due });
    await reserveBudget(world, 7, 2_000, '2026-11', { send_id: 's-b', due_at: due });
    const get = world.sends.get.bind(world.sends);
    world.sends.get = async (id: string) => {
      if (id === 's-a') throw new Error('throttled');
      return get(id);
    };
    // Act
    const failing = await endReservations(world, due);
    world.sends.get = get;
    const next = await endReservations(world, due);
    // Assess
    expect(failing).toEqual({ failed: 1, returned_unrecorded: 1 });
    expect(next).toEqual({ returned_unrecorded: 1 });
    expect(await books(world)).toMatchObject({ outstanding: 0, released: 3_000 });
  });
});
