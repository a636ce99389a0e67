import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { call, expectErrorShape, tokens } from '../support/api.ts';
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
/** A send of `count` Argentine recipients, scheduled for `sendAt` when given. */
async function send(count: number, sendAt?: string) {
  const b = batch++;
  return call('POST', `/v1/template/messages/${client.did}`, {
    token: await client.token(),
    body: {
      did: client.did,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: 'order_update', language: 'en_US' },
      ...(sendAt && { send_at: sendAt }),
      recipients: Array.from({ length: count }, (_, i) => ({
        to: `549${run}${b}${String(i).padStart(4, '0')}`,
        params: { body: [`A-${i}`] },
      })),
    },
  });
}

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
});
