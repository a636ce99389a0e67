import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { messageKey } from '#lib/adapters/dynamo/sends/send-items.ts';
import { keys, SORT } from '#lib/adapters/dynamo/table.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { call, emulator } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * A send accepted before issue 54 kept each message's state on an item of its own (`MSG#`) as well as on its
 * block's latest item; the status path now reads the latest item alone, and the message items only for a mark
 * the TTL's give-back left there (decisions §30). Client 682 on the running local stack.
 */
const client = new OwnClient(682);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const RATE = rateCards.priceMicros('Argentina', 'utility', new Date().toISOString().slice(0, 10)) / 1e6;
const table = serviceTable();
const budgetNow = async () =>
  (await call('GET', `/v1/clients/${client.clientId}/budget`, { token: await client.token() })).body as { spent: number; reserved: number };

beforeAll(() => client.seed('Before 54', [demoTemplateAs('order_update', { id: 't682' })]), 60_000);

describe('a send accepted before the message states moved to the latest items (issue 54)', () => {
  it('releases nothing more for messages given back on their own items when Meta delivers them late, and charges them once', async () => {
    // Prepare: Meta reports nothing yet; a send of 2 Argentine recipients
    await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: [] });
    const recipients = [0, 1].map((i) => `549${run}7${String(i).padStart(4, '0')}`);
    const sent = await call('POST', `/v1/template/messages/${client.did}`, {
      token: await client.token(),
      body: {
        did: client.did,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'order_update', language: 'en_US' },
        recipients: recipients.map((to, i) => ({ to, params: { body: [`B-${i}`] } })),
      },
    });
    const sendId = sent.body.send_id as string;
    await until(
      () => client.status(sendId),
      (s) => s.pending === 0 && s.sent === 2,
      60_000,
    );
    // …made as one accepted before: no `message_states` on its item, and both messages given back on their own items
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { pk: keys.send(sendId), sk: SORT.send },
        UpdateExpression: 'REMOVE message_states',
      }),
    );
    for (const index of [0, 1])
      await table.client.send(
        new PutCommand({
          TableName: table.name,
          Item: { ...messageKey(sendId, index), entity: 'send_message', index, v: 1, ttl_returned_at: new Date().toISOString() },
        }),
      );
    const before = await budgetNow();
    // Act: Meta delivers both, late
    const messages = (await emulator('GET', `sent?phone_number_id=${client.numberId}`)).sent as { id: string; message: { to: string } }[];
    const ours = messages.filter((m) => recipients.includes(m.message.to.replace(/^\+/, '')));
    for (const { id } of ours) await emulator('POST', `messages/${encodeURIComponent(id)}/status`, { status: 'delivered' });
    const delivered = await until(
      () => client.status(sendId),
      (s) => s.delivered === 2,
      60_000,
    );
    const after = await until(budgetNow, (b) => b.spent >= before.spent + 2 * RATE - 1e-9, 30_000);
    // Assess: both charged once; their parts were given back already, so the reservation is as it was
    expect(ours).toHaveLength(2);
    expect(delivered).toMatchObject({ delivered: 2, sent: 2 });
    expect(after.spent).toBeCloseTo(before.spent + 2 * RATE, 6);
    expect(after.reserved).toBeCloseTo(before.reserved, 6);
  });
});
