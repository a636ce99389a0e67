import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, token, useStack } from '../support/api.ts';
import { type ChildStack, startChildStack } from '../support/child-stack.ts';
import { waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * What the performance aggregates cost (decisions §33, issue 56: at most +0.5 write units a message), on a stack of
 * this file's own: two sends of 800 on one number at once, every message sent, delivered and read, then a tenth of
 * each send's people pressing a quick-reply button and a twentieth writing without quoting it. Every write is
 * recorded by item (`/_local/writes`) and summed twice: as written, and as it would have been without the aggregates
 * (`?without=performance`, local/performance-writes.ts: no template day, reply index or reply item, no figures on
 * the count shards, no delivery times on the latest items), at the items' real sizes, transactions counted twice.
 */
const CLIENT = 702;
const WABA = 'w702';
const NUMBER = { did: '5217020001', id: 'p702001' };
const PER_SEND = 800;
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const templates = JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8'))
  .wabas.find((w: { waba_id: string }) => w.waba_id === '100200300')
  .templates.map((t: { id: string }) => ({ ...t, id: `702${t.id}` }));
const own = () => token({ clientId: CLIENT, campaigns: [] });

let stack: ChildStack;
const folder = mkdtempSync(join(tmpdir(), 'tms-performance-'));

beforeAll(async () => {
  const fixture = join(folder, 'directory.json');
  writeFileSync(
    fixture,
    JSON.stringify({
      clients: [{ client_id: CLIENT, client_name: 'Performance writes' }],
      wabas: [waba(WABA, templates)],
      channels: [{ wa_id: NUMBER.did, client_id: CLIENT, waba_id: WABA, phone_number_id: NUMBER.id }],
    }),
  );
  stack = await startChildStack(join(folder, 'data'), { FIXTURE: fixture, FRESH: 'true', KEEP_DATA: 'false', AUTO_STATUSES: '' });
  useStack(stack);
  await emulator('POST', `numbers/${NUMBER.id}/statuses`, { statuses: ['sent', 'delivered', 'read'] });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const send = async (batch: number) => {
  const response = await call('POST', `/v1/template/messages/${NUMBER.did}`, {
    token: await own(),
    body: {
      did: NUMBER.did,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: 'order_update', language: 'en_US' },
      recipients: Array.from({ length: PER_SEND }, (_, i) => ({
        to: `52${run}${batch}${String(i).padStart(4, '0')}`,
        params: { body: ['x'] },
      })),
    },
  });
  expect(response.status).toBe(200);
  return response.body.send_id as string;
};

type Summary = {
  units: number;
  writes: number;
  items: { pk: string; sk: string; writes: number; units: number }[];
  keys: { units: number }[];
};

/** The run's writes so far as made and as they would have been without the aggregates, and units by item kind. */
async function measured() {
  const all = (await call('GET', '/_local/writes')).body as Summary;
  const without = (await call('GET', '/_local/writes?without=performance')).body as Summary;
  const kind = (item: { pk: string; sk: string }) => `${item.pk.replace(/#.*$/, '')} / ${item.sk.replace(/#.*$/, '')}`;
  const byKind = new Map<string, number>();
  for (const item of all.items) byKind.set(kind(item), (byKind.get(kind(item)) ?? 0) + item.units);
  for (const item of without.items) byKind.set(kind(item), (byKind.get(kind(item)) ?? 0) - item.units);
  return { added: all.units - without.units, all, byKind: [...byKind].filter(([, units]) => units !== 0) };
}

describe('what the performance aggregates add to the send path (decisions §33)', () => {
  it('adds at most 0.5 write units a message to the send path, at most 6 a reply, no item above 1 write per 20 messages', {
    timeout: 300_000,
  }, async () => {
    // Prepare
    await call('POST', '/_local/writes');
    const ids = await Promise.all([send(1), send(2)]);
    for (const id of ids) {
      const done = await until(
        async () => (await call('GET', `/v1/sends/${id}`, { token: await own() })).body,
        (s) => s.pending === 0 && s.read === PER_SEND,
        150_000,
        500,
      );
      expect(done).toMatchObject({ sent: PER_SEND, read: PER_SEND });
    }
    await new Promise((r) => setTimeout(r, 1_000));
    const sendPath = await measured();
    // Act: a tenth press a button, a twentieth write without quoting the message, spread over the sends
    for (const id of ids) {
      await emulator('POST', 'replies', { send_id: id, every: 10, button: { payload: 'YES', text: 'Yes' } });
      await emulator('POST', 'replies', { send_id: id, skip: 5, every: 20, text: 'hi', context: false });
    }
    for (const id of ids) {
      const counted = await until(
        async () => (await call('GET', `/v1/sends/${id}/performance`, { token: await own() })).body,
        (p) => p.totals?.replied === PER_SEND / 10 && p.totals?.replied_after === PER_SEND / 20,
        60_000,
        500,
      );
      expect(counted.totals).toMatchObject({ read: PER_SEND, replied: PER_SEND / 10, replied_after: PER_SEND / 20, buttons: { Yes: 80 } });
    }
    await new Promise((r) => setTimeout(r, 1_000));
    const withReplies = await measured();
    const figures = (await call('GET', `/_local/writes?prefix=${encodeURIComponent('TEMPLATE_FIGURES#')}`)).body as Summary;
    // Assess
    const messages = 2 * PER_SEND;
    const replies = messages * 0.15;
    const perMessage = sendPath.added / messages;
    const perReply = (withReplies.added - sendPath.added) / replies;
    console.info(
      `performance aggregates: the send path ${sendPath.all.units} write units for ${messages} messages, +${sendPath.added} for the aggregates (${perMessage.toFixed(3)} a message: ${JSON.stringify(sendPath.byKind)}); ${replies} replies +${withReplies.added - sendPath.added} (${perReply.toFixed(2)} a reply: ${JSON.stringify(withReplies.byKind)}); template days ${figures.units} units in ${figures.writes} writes, hottest ${JSON.stringify(figures.items[0])}`,
    );
    expect(sendPath.added).toBeGreaterThan(0);
    expect(perMessage).toBeLessThanOrEqual(0.5);
    expect(perReply).toBeLessThanOrEqual(6);
    expect(figures.writes).toBeGreaterThan(0);
    expect(figures.items[0].writes / messages).toBeLessThanOrEqual(0.05);
    expect(figures.keys[0].units / messages).toBeLessThanOrEqual(1);
  });
});
