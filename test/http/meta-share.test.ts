import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, tokens } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { reconcileAt } from '../support/scheduled-workers.ts';
import { seedDirectory, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Meta's figures by who sent (decisions §32, issue 52 item 3), on the running local stack: clients 663 and 664
 * share WABA w663, and the directory lets 664 send from 663's number. Only 664 sends, so Meta's figure of that
 * number is 664's: 663's `meta_amount` is 0 and neither has a gap.
 */
const owner = new OwnClient(663);
const sender = new OwnClient(664);
const today = () => new Date().toISOString().slice(0, 10);
const dayAfter = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const run = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');

beforeAll(async () => {
  const templates = [demoTemplateAs('order_update', { id: 't663' })];
  const numbers = [owner, sender].map((c) => ({ id: c.numberId, display_phone_number: c.did }));
  await seedDirectory({
    clients: [
      { client_id: owner.clientId, client_name: 'Shares owner' },
      { client_id: sender.clientId, client_name: 'Shares sender' },
    ],
    wabas: [waba(owner.waba, templates)],
    channels: [owner, sender].map((c) => ({ wa_id: c.did, client_id: c.clientId, waba_id: owner.waba, phone_number_id: c.numberId })),
  });
  await emulator('POST', 'wabas', { id: owner.waba, templates, phone_numbers: numbers });
}, 60_000);

type Row = { messages: number; amount?: number; meta_amount?: number };
const usageOf = async (clientId: number) =>
  (await call('GET', `/v1/usage?client_id=${clientId}&from=${today()}&to=${today()}&group_by=day`, { token: await tokens.bsp() })).body
    .data as Row[];
/** The messages Meta accepted from client 663's number, oldest first. */
const sentFromOwner = async () => (await emulator('GET', `sent?phone_number_id=${owner.numberId}`)).sent as { id: string }[];
const total = (rows: Row[], field: keyof Row) => rows.reduce((sum, row) => sum + (row[field] ?? 0), 0);

describe('a number shared by clients 663 and 664 (decisions §32)', () => {
  it('gives Meta’s figure to the client that sent: 663’s meta_amount is 0, and the gaps are under 1 % for both', async () => {
    // Prepare: client 664 sends three messages from client 663's number, and they are delivered and charged
    const recipients = [0, 1, 2].map((i) => `52155${run}${i}`);
    // The local stack keeps its data: a run of this file earlier today is counted from
    const before = total(await usageOf(sender.clientId), 'messages');
    const sentBefore = (await sentFromOwner()).length;
    const accepted = await call('POST', `/v1/template/messages/${owner.did}`, {
      token: await sender.token(),
      body: {
        did: owner.did,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'order_update', language: 'en_US' },
        recipients: recipients.map((to) => ({ to, params: { body: [`A-${to}`] } })),
      },
    });
    expect(accepted.status).toBe(200);
    const sent = await until(sentFromOwner, (all) => all.length >= sentBefore + 3, 60_000, 500);
    await Promise.all(
      sent.slice(sentBefore).map((m) => emulator('POST', `messages/${encodeURIComponent(m.id)}/status`, { status: 'delivered' })),
    );
    const charged = await until(
      () => usageOf(sender.clientId),
      (rows) => total(rows, 'messages') >= before + 3,
      60_000,
      500,
    );
    expect(total(charged, 'messages')).toBe(before + 3);
    // Act: the daily reconciliation reads Meta's figures of the day
    await reconcileAt(dayAfter(today(), 1));
    const ownerRows = await usageOf(owner.clientId);
    const senderRows = await usageOf(sender.clientId);
    const gaps = await call('GET', `/v1/usage/gaps?from=${today()}&to=${today()}`, { token: await tokens.bsp() });
    // Assess
    expect(total(ownerRows, 'meta_amount')).toBe(0);
    expect(total(ownerRows, 'messages')).toBe(0);
    const amount = total(senderRows, 'amount');
    expect(amount).toBeGreaterThan(0);
    expect(Math.abs(total(senderRows, 'meta_amount') - amount) / amount).toBeLessThan(0.01);
    expect(gaps.status).toBe(200);
    const ours = (gaps.body.data as { client_id: number }[]).filter((g) => [owner.clientId, sender.clientId].includes(g.client_id));
    expect(ours).toEqual([]);
  }, 180_000);
});
