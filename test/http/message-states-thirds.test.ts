import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { latestKeysOf } from '#lib/adapters/dynamo/sends/latest-states.ts';
import { keys, SORT } from '#lib/adapters/dynamo/table.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { call, emulator } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * A block's latest items a third of it each (issue 54): a send accepted now keeps each message's state on the item
 * of its block's third, a status rewrites that third alone, and the recipients listing reads the three; a send
 * accepted before keeps the whole block on one item and goes on working. Client 730 on the running local stack.
 */
const client = new OwnClient(730);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const table = serviceTable();

beforeAll(() => client.seed('Thirds', [demoTemplateAs('order_update', { id: 't730' })]), 60_000);

type Row = { index: number; to: string; status: string };

/** A send of `count` Argentine recipients, once the emulator holds every message: its id, recipients and messages by position. */
async function sendOf(count: number, tag: string) {
  const recipients = Array.from({ length: count }, (_, i) => `549${run}${tag}${String(i).padStart(3, '0')}`);
  const sent = await client.send('order_update', recipients);
  expect(sent.status).toBe(200);
  const sendId = sent.body.send_id as string;
  await client.settled(sendId, (s) => s.pending === 0 && s.sent === count);
  const { sent: messages } = (await emulator('GET', `sent?phone_number_id=${client.numberId}`)) as {
    sent: { id: string; message: { to: string } }[];
  };
  const idOf = new Map(messages.map((m) => [m.message.to.replace(/^\+/, ''), m.id]));
  return { sendId, ids: recipients.map((to) => idOf.get(to) as string) };
}

/** Meta reports these statuses of these messages, one webhook each. */
const report = async (ids: string[], status: 'delivered' | 'read') => {
  for (const id of ids) await emulator('POST', `messages/${encodeURIComponent(id)}/status`, { status });
};

/** The block's latest items as stored (undefined where none), from the first position's. */
const latestItems = (sendId: string) =>
  Promise.all(
    latestKeysOf(sendId, 0).map(
      async (Key) => (await table.client.send(new GetCommand({ TableName: table.name, Key, ConsistentRead: true }))).Item,
    ),
  );
const offsetsOf = (item: Record<string, unknown> | undefined) =>
  Object.keys(item ?? {})
    .filter((name) => /^d\d+$/.test(name))
    .map((name) => Number(name.slice(1)))
    .sort((a, b) => a - b);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const listing = async (sendId: string) =>
  (await call('GET', `/v1/sends/${sendId}/recipients?size=100`, { token: await client.token() })).body.data as Row[];

describe('a block’s latest items, a third of a block each (issue 54)', () => {
  it('keeps each message’s state on its third’s item, a read rewriting that third alone, and lists all three', async () => {
    // Prepare: Meta reports nothing by itself; a send of 70 (one block: thirds of 30, 30 and 10), all delivered
    await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: [] });
    const { sendId, ids } = await sendOf(70, '1');
    const { Item: send } = await table.client.send(
      new GetCommand({ TableName: table.name, Key: { pk: keys.send(sendId), sk: SORT.send } }),
    );
    await report(ids, 'delivered');
    await client.settled(sendId, (s) => s.delivered === 70);
    const before = await latestItems(sendId);
    // Act: the message at position 45 is read
    await report([ids[45]], 'read');
    await client.settled(sendId, (s) => s.read === 1);
    const after = await latestItems(sendId);
    const rows = await listing(sendId);
    // Assess: three items, each holding its third; the read changed the middle one alone; the listing merges them
    expect(send?.message_states).toBe('latest-thirds');
    expect(before.map(offsetsOf)).toEqual([range(0, 30), range(30, 60), range(60, 70)]);
    expect(after[0]).toEqual(before[0]);
    expect(after[2]).toEqual(before[2]);
    expect(String(after[1]?.d45)).toMatch(/^r@/);
    expect(String(before[1]?.d45)).toMatch(/^v@/);
    expect(rows).toHaveLength(70);
    expect(rows.filter((row) => row.status === 'read').map((row) => row.index)).toEqual([45]);
    expect(rows.filter((row) => row.status === 'delivered')).toHaveLength(69);
  });

  it('keeps a send accepted before the thirds on its block’s one latest item, its statuses and listing as before', async () => {
    // Prepare: a send of 40, made one accepted before the thirds (its item says `latest`) before any status comes
    await emulator('POST', `numbers/${client.numberId}/statuses`, { statuses: [] });
    const { sendId, ids } = await sendOf(40, '2');
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { pk: keys.send(sendId), sk: SORT.send },
        UpdateExpression: 'SET message_states = :block',
        ExpressionAttributeValues: { ':block': 'latest' },
      }),
    );
    // Act: all delivered, then position 35 read
    await report(ids, 'delivered');
    await client.settled(sendId, (s) => s.delivered === 40);
    await report([ids[35]], 'read');
    await client.settled(sendId, (s) => s.read === 1);
    const items = await latestItems(sendId);
    const rows = await listing(sendId);
    // Assess: one item holds the whole block, none for its other thirds; the listing reads it as before
    expect(items.map(offsetsOf)).toEqual([range(0, 40), [], []]);
    expect(items.slice(1)).toEqual([undefined, undefined]);
    expect(String(items[0]?.d35)).toMatch(/^r@/);
    expect(rows.filter((row) => row.status === 'read').map((row) => row.index)).toEqual([35]);
    expect(rows.filter((row) => row.status === 'delivered')).toHaveLength(39);
  });
});
