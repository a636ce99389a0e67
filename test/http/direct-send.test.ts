import { beforeAll, describe, expect, it } from 'vitest';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { EMULATOR_TOKEN } from '../../local/standins/graph/emulator.ts';
import { call, emulator, expectErrorShape, graphUrl, queuedBy, token } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';
import { until } from '../support/until.ts';

/**
 * Direct Send (issue 55 item 2, decisions §34, docs/platform-2027.md §2) through the running local stack: client
 * 687 sends 100 Mexican recipients a UTILITY message by `category` and `message`, without a template; every message
 * reaches the emulator as Meta's free-form message with `category`, Meta's AUTO_GENERATED template of it is listed
 * read-only after a sync, and neither the service nor Meta lets it be edited or deleted. A WABA Meta has not
 * enabled is refused before anything is queued.
 */
const client = new OwnClient(687);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const TODAY = new Date().toISOString().slice(0, 10);
const RATE = rateCards.priceMicros('Mexico', 'utility', TODAY) / 1e6;
const text = `Your parcel ${run} is at the pickup point until Friday.`;
const bsp = () => token({ clientId: 1, bsp: true });
let sendId = '';

async function directSend(count: number, extra: Record<string, unknown> = {}) {
  return call('POST', `/v1/template/messages/${client.did}`, {
    token: await client.token(),
    body: {
      did: client.did,
      type: 'template',
      channel: 'MSGCHAN',
      category: 'UTILITY',
      message: { type: 'text', text: { body: text } },
      recipients: Array.from({ length: count }, (_, i) => ({ to: `52155${run}${String(i).padStart(3, '0')}` })),
      ...extra,
    },
  });
}
const sent = async () =>
  (await emulator('GET', `sent?phone_number_id=${client.numberId}`)).sent as { message: Record<string, any>; direct_template?: string }[];
const listed = async () =>
  (await call('GET', `/v1/templates?client_id=${client.clientId}&size=100`, { token: await bsp() })).body.data as Record<string, any>[];
const graph = (method: string, path: string, body?: unknown) =>
  fetch(`${graphUrl()}/v24.0/${path}`, {
    method,
    headers: { authorization: `Bearer ${EMULATOR_TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

beforeAll(() => client.seed('Direct Send', [demoTemplateAs('order_update', { id: 't687' })]), 60_000);

describe('Direct Send through the stack (issue 55 item 2)', () => {
  it('is refused on a WABA Meta has not enabled, with a named 422, and nothing is queued', async () => {
    // Prepare
    await emulator('POST', `wabas/${client.waba}/direct-send`, { enabled: false });
    // Act
    const refused = await directSend(3);
    // Assess
    expectErrorShape(refused, 422, 'direct_send_not_enabled');
    expect(await queuedBy(refused)).toEqual([]);
    expect(await sent()).toEqual([]);
  });

  it('refuses a request naming a template and a category, and one with category but no message (400s naming the field)', async () => {
    // Act
    const both = await directSend(1, { template: { name: 'order_update', language: 'en_US' } });
    const noMessage = await directSend(1, { message: undefined });
    // Assess
    expect(expectErrorShape(both, 400).details).toEqual([expect.objectContaining({ path: 'template' })]);
    expect(expectErrorShape(noMessage, 400).details).toEqual([expect.objectContaining({ path: 'message' })]);
  });

  it('sends 100 by Direct Send: each reaches the emulator with category, at the utility rate, under one AUTO_GENERATED template', async () => {
    // Prepare
    await emulator('POST', `wabas/${client.waba}/direct-send`, { enabled: true });
    // Act
    const accepted = await directSend(100);
    // Assess
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.estimate.by_market).toMatchObject({ Mexico: { messages: 100 } });
    expect(accepted.body.estimate.amount).toBeCloseTo(100 * RATE, 6);
    const status = await client.settled(accepted.body.send_id);
    expect(status).toMatchObject({ total: 100, sent: 100, failed: 0, pending: 0 });
    const messages = await sent();
    expect(messages).toHaveLength(100);
    for (const m of messages) {
      expect(m.message).toMatchObject({ type: 'text', text: { body: text }, category: 'utility' });
      expect(m.message).not.toHaveProperty('template');
    }
    expect(new Set(messages.map((m) => m.direct_template)).size).toBe(1);
    sendId = accepted.body.send_id;
  });

  it('resends a Direct Send’s failed recipient as a Direct Send, and dry-runs one as a send would', async () => {
    // Prepare: Meta reports one message failed
    const [first] = (await emulator('GET', `sent?phone_number_id=${client.numberId}`)).sent as { id: string; message: { to: string } }[];
    await emulator('POST', `messages/${encodeURIComponent(first.id)}/status`, {
      status: 'failed',
      error: { code: 131047, title: 'Re-engagement' },
    });
    await client.settled(sendId, (s) => s.failed === 1, 30_000);
    // Act
    const dry = await call('POST', `/v1/template/messages/${client.did}?dry_run=true`, {
      token: await client.token(),
      body: {
        did: client.did,
        type: 'template',
        channel: 'MSGCHAN',
        category: 'UTILITY',
        message: { type: 'text', text: { body: text } },
        recipients: [{ to: first.message.to }],
      },
    });
    const resent = await call('POST', `/v1/sends/${sendId}/resend`, { token: await client.token(), body: { which: 'failed' } });
    // Assess
    expect(dry.body).toMatchObject({ success: true, dry_run: true, total: 1, valid: 1 });
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.body).toMatchObject({ resend_of: sendId, recipients: 1 });
    const again = await until(sent, (all) => all.filter((m) => m.message.to === first.message.to).length === 2, 30_000, 250);
    expect(again.filter((m) => m.message.to === first.message.to).at(-1)!.message).toMatchObject({
      category: 'utility',
      text: { body: text },
    });
  });

  it('lists Meta’s generated template read-only after a sync; an edit is refused without calling Meta, and Meta refuses a delete', async () => {
    // Prepare
    expect((await call('POST', '/v1/templates/sync-from-meta', { token: await client.token() })).status).toBe(200);
    const entries = await until(listed, (all) => all.some((e) => e.auto_generated === true), 30_000, 250);
    const generated = entries.find((e) => e.auto_generated === true)!;
    await emulator('DELETE', 'calls');
    // Act
    const edit = await call('PUT', `/v1/templates/${client.did}/${generated.id}`, {
      token: await client.token(),
      body: { components: [{ type: 'BODY', text: 'Something else' }] },
    });
    const deleted = await graph('DELETE', `${client.waba}/message_templates?name=${generated.meta_template.name}`);
    // Assess
    expect(generated.meta_template).toMatchObject({ source: 'AUTO_GENERATED', status: 'APPROVED', category: 'UTILITY' });
    expect(generated.meta_template.name).toMatch(/^auto_generated_text_/);
    expectErrorShape(edit, 422, 'direct_send_template_read_only');
    const calls = (await emulator('GET', 'calls')).calls as { method: string; path: string }[];
    expect(calls.filter((c) => c.path.endsWith(`/${generated.meta_template.id}`))).toEqual([]);
    expect(deleted.status).toBe(400);
    expect((await deleted.json()).error).toMatchObject({ code: 100, error_subcode: 2388330 });
  });
});
