import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { DynamoRecipientLists } from '#lib/adapters/dynamo/sends/recipient-lists.ts';
import { DynamoReservationReturns } from '#lib/adapters/dynamo/sends/reservation-returns.ts';
import { DynamoReservationWatches } from '#lib/adapters/dynamo/sends/reservation-watches.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { DynamoTtlReturns } from '#lib/adapters/dynamo/sends/ttl-returns.ts';
import { DynamoBudgetStore } from '#lib/adapters/dynamo/money/budget-store.ts';
import type { ReservationWatch } from '#lib/domain/money/ports.ts';
import { FIRST_LOOK_MS, lookAt } from '#lib/domain/sends/operations/reservation-watch.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { call, emulator, expectErrorShape, tokens } from '../support/api.ts';
import { until } from '../support/until.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * Reservations end (decisions §30, issue 51) on the running local stack. Client 597 sends Argentine recipients
 * of a UTILITY template: each reserves the card's Argentina utility rate in force today.
 */
const client = new OwnClient(597);
const CLIENT = client.clientId;
const RATE = rateCards.priceMicros('Argentina', 'utility', new Date().toISOString().slice(0, 10)) / 1e6;
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const budget = async (monthly_amount: number | null) =>
  call('PUT', `/v1/clients/${CLIENT}/budget`, { token: await tokens.bsp(), body: { monthly_amount } });

let batch = 0;
/** A send of `count` Argentine recipients, scheduled for `sendAt` when given, with `extra` options. */
async function send(count: number, sendAt?: string, extra: Record<string, unknown> = {}) {
  const b = batch++;
  return call('POST', `/v1/template/messages/${client.did}`, {
    token: await client.token(),
    body: {
      did: client.did,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: 'order_update', language: 'en_US' },
      ...(sendAt && { send_at: sendAt }),
      ...extra,
      recipients: Array.from({ length: count }, (_, i) => ({
        to: `549${run}${b}${String(i).padStart(4, '0')}`,
        params: { body: [`A-${i}`] },
      })),
    },
  });
}

const table = serviceTable();
/** The EndReservations job's use case on the stack's table (lib/domain/sends/operations/reservation-watch.ts). */
const watchDeps = {
  sends: new DynamoSendRecords(table),
  recipientLists: new DynamoRecipientLists(table),
  reservationWatches: new DynamoReservationWatches(table),
  reservationReturns: new DynamoReservationReturns(table),
  ttlReturns: new DynamoTtlReturns(table),
  log: silentLog,
};
/**
 * This test's own watch, looked at as the job would at `at`. Only its own: the job itself, run at a time ahead,
 * would also end the reservations of other files' sends on the shared stack.
 */
async function lookAtWatchOf(sendId: string, at: string) {
  const all = await watchDeps.reservationWatches.due('9999-12-31T00:00:00.000Z', 10_000);
  const watch = all.find((w) => w.send_id === sendId) as ReservationWatch;
  expect(watch).toBeDefined();
  return lookAt(watchDeps, watch, at);
}
const budgetNow = async () => (await call('GET', `/v1/clients/${CLIENT}/budget`, { token: await client.token() })).body;
const reservedNow = async () => (await budgetNow()).reserved as number;
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

beforeAll(() => client.seed('Reservations', [demoTemplateAs('order_update', { id: 't597' })]), 60_000);

describe('a reservation ends (decisions §30)', () => {
  it('a cancelled scheduled send returns its reservation at once', async () => {
    // Prepare: a budget with room for the scheduled send, not for it and the next one as well
    const before = (await budget(null)).body;
    const reservedBefore = before.reserved as number;
    await budget(before.spent + reservedBefore + RATE * 15);
    const sendAt = new Date(Date.now() + 10 * 60_000).toISOString();
    const scheduled = await send(10, sendAt);
    const refused = await send(10);
    // Act
    const cancelled = await call('POST', `/v1/sends/${scheduled.body.send_id}/cancel`, { token: await client.token() });
    const shown = await call('GET', `/v1/clients/${CLIENT}/budget`, { token: await client.token() });
    const next = await send(10);
    // Assess
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.status).toBe('scheduled');
    expectErrorShape(refused, 409, 'budget_exceeded');
    expect(cancelled.status).toBe(202);
    expect(shown.body.reserved).toBeCloseTo(reservedBefore, 6);
    expect(next.status).toBe(200);
    expect(await client.status(scheduled.body.send_id)).toMatchObject({ status: 'cancelled', cancelled: 10, pending: 0 });
  });

  it('a message Meta never settles gives back its part at its TTL’s end, once; its late delivered is charged, nothing more released', async () => {
    // Prepare: Meta answers `sent` and nothing more; a send of 3 with a TTL of a minute
    await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: ['sent'] });
    const { reserved: reservedBefore, spent: spentBefore } = await budgetNow();
    const sent = await send(3, undefined, { message_send_ttl_seconds: 60 });
    const sendId = sent.body.send_id as string;
    await until(
      () => client.status(sendId),
      (s) => s.pending === 0 && s.sent === 3,
      60_000,
    );
    const reservedWhileOut = await reservedNow();
    // Act: the job past the TTL's end, twice; then Meta's late delivered of one message
    const first = await lookAtWatchOf(sendId, later(FIRST_LOOK_MS));
    const reservedAfter = await reservedNow();
    const again = (await watchDeps.reservationWatches.due('9999-12-31T00:00:00.000Z', 10_000)).some((w) => w.send_id === sendId);
    const messages = (await emulator('GET', `sent?phone_number_id=${client.numberId}`)).sent as { id: string; message: { to: string } }[];
    const one = messages.find((m) => m.message.to.replace(/^\+/, '').startsWith(`549${run}${batch - 1}`)) as { id: string };
    await emulator('POST', `messages/${encodeURIComponent(one.id)}/status`, { status: 'delivered' });
    const delivered = await until(
      () => client.status(sendId),
      (s) => s.delivered === 1,
      60_000,
    );
    // Assess: the three parts reserved, then given back; the watch gone; the delivered one charged, nothing released
    expect(reservedWhileOut).toBeCloseTo(reservedBefore + 3 * RATE, 6);
    expect(first).toBe('returned_at_ttl');
    expect(reservedAfter).toBeCloseTo(reservedBefore, 6);
    expect(again).toBe(false);
    expect(delivered.delivered).toBe(1);
    const end = await until(budgetNow, (b) => b.spent > spentBefore, 30_000);
    expect(end.spent).toBeCloseTo(spentBefore + RATE, 6);
    expect(end.reserved).toBeCloseTo(reservedBefore, 6);
  });

  it('a crash between reserving and recording: the watch gives the whole back once, after the acceptance could end', async () => {
    // Prepare: a reservation and its watch written as an acceptance writes them, then nothing (it died)
    const reservedBefore = await reservedNow();
    const sendId = `crashed-${run}-${Date.now()}`;
    const month = new Date().toISOString().slice(0, 7);
    const dueAt = later(FIRST_LOOK_MS);
    await new DynamoBudgetStore(table).reserve(CLIENT, month, 7_000_000, undefined, {
      send_id: sendId,
      client_id: CLIENT,
      month,
      micros: 7_000_000,
      due_at: dueAt,
    });
    const reservedAfterCrash = await reservedNow();
    // Act: the job when the watch is due, then again
    const first = await lookAtWatchOf(sendId, dueAt);
    const second = await watchDeps.reservationWatches.returnUnrecorded({
      send_id: sendId,
      client_id: CLIENT,
      month,
      micros: 7_000_000,
      due_at: dueAt,
    });
    // Assess
    expect(reservedAfterCrash).toBeCloseTo(reservedBefore + 7, 6);
    expect(first).toBe('returned_unrecorded');
    expect(second).toBe(false);
    expect(await reservedNow()).toBeCloseTo(reservedBefore, 6);
  });

  it('a watch filed again is due only at its new time, once, on DynamoDB', async () => {
    // Prepare: a watch due in 20 minutes
    const sendId = `refiled-${run}-${Date.now()}`;
    const month = new Date().toISOString().slice(0, 7);
    const watch = { send_id: sendId, client_id: CLIENT, month, micros: 1, due_at: later(FIRST_LOOK_MS) };
    await new DynamoBudgetStore(table).reserve(CLIENT, month, 1, undefined, watch);
    const ours = async (at: string) => (await watchDeps.reservationWatches.due(at, 10_000)).filter((w) => w.send_id === sendId);
    const dayLater = later(86_400_000);
    // Act: filed again for a day later
    await watchDeps.reservationWatches.refile(watch, dayLater);
    // Assess: not due at its old time, due once at its new one; gone once given back
    expect(await ours(later(2 * FIRST_LOOK_MS))).toEqual([]);
    const due = await ours(later(2 * 86_400_000));
    expect(due).toEqual([{ ...watch, due_at: dayLater }]);
    expect(await watchDeps.reservationWatches.returnUnrecorded(due[0])).toBe(true);
    expect(await ours(later(2 * 86_400_000))).toEqual([]);
  });
});
