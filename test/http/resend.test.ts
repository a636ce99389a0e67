import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape, token } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * Resending what failed, on the running local stack (decisions §25, issue 35). Client 543 has its own WABA and
 * number; the emulator refuses some recipients once, each with its own code.
 */
const client = new OwnClient(543);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const numberOf = (batch: number, i: number) => `52${run}${batch}${String(i).padStart(4, '0')}`;
const refuse = (to: string, code: number) =>
  emulator('POST', 'faults', { path: `/${client.numberId}/messages`, body: `"to":"${to}"`, status: 400, code, times: 1 });
const accepted = async (to: string) => ((await emulator('GET', `sent?to=${to}`)).sent as unknown[]).length;
const resend = async (sendId: string, which: string, key?: string, query = '') =>
  call('POST', `/v1/sends/${sendId}/resend${query}`, {
    token: await client.token(),
    body: { which },
    ...(key && { headers: { 'idempotency-key': key } }),
  });

beforeAll(() => client.seed('Resends', [demoTemplateAs('order_update', { id: 't543' })]), 60_000);

describe('resending (decisions §25)', () => {
  const numbers = Array.from({ length: 100 }, (_, i) => numberOf(1, i));
  // 20 refused: 10 undeliverable (131026), 5 opted out (131050), 5 outside the window (131047, worth another try)
  const refusals = numbers.slice(0, 20).map((to, k) => ({ to, code: k < 10 ? 131026 : k < 15 ? 131050 : 131047 }));
  const retryable = refusals.filter((r) => r.code === 131047).map((r) => r.to);
  let original: string;

  beforeAll(async () => {
    for (const { to, code } of refusals) await refuse(to, code);
    const sent = await client.send('order_update', numbers);
    expect(sent.status).toBe(200);
    original = sent.body.send_id;
    expect(await client.settled(original)).toMatchObject({ sent: 80, failed: 20 });
  }, 90_000);

  it('resends only the failed recipients worth another try, with their values, once; the same key answers the same send', {
    timeout: 120_000,
  }, async () => {
    // Prepare
    const key = `resend-${run}`;
    // Act
    const dry = await resend(original, 'failed', undefined, '?dry_run=true');
    const first = await resend(original, 'failed', key);
    const again = await resend(original, 'failed', key);
    const resent = await client.settled(first.body.send_id);
    const source = await client.status(original);
    // Assess
    expect(dry.body).toMatchObject({ dry_run: true, total: 5, valid: 5 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, resend_of: original, recipients: 5 });
    expect(again.body.send_id).toBe(first.body.send_id);
    expect(resent).toMatchObject({ total: 5, sent: 5, failed: 0, resend_of: original });
    expect(source.resent_as).toEqual([first.body.send_id]);
    for (const to of retryable) expect(await accepted(to)).toBe(1);
    for (const { to } of refusals.filter((r) => r.code !== 131047)) expect(await accepted(to)).toBe(0);
    const values = (await emulator('GET', `sent?to=${retryable[0]}`)).sent[0].message.template.components;
    expect(JSON.stringify(values)).toContain(`A-${retryable[0]}`);
  });

  it('answers 409 nothing_to_resend when no recipient is left to resend, 400 for another `which` or an unknown field, 404 for another client’s send', async () => {
    // Prepare: the resend itself failed nobody
    const resent = (await client.status(original)).resent_as[0];
    // Act
    const nothing = await resend(resent, 'failed');
    const unknownWhich = await resend(original, 'everyone');
    const unknownField = await call('POST', `/v1/sends/${original}/resend`, {
      token: await client.token(),
      body: { which: 'failed', recipients: 'all' },
    });
    const other = await call('POST', `/v1/sends/${original}/resend`, {
      token: await token({ clientId: 7, campaigns: [31] }),
      body: { which: 'failed' },
    });
    // Assess
    expectErrorShape(nothing, 409, 'nothing_to_resend');
    expectErrorShape(unknownWhich, 400);
    // Unknown fields are refused (decisions §2, §32), never dropped
    expectErrorShape(unknownField, 400);
    expect(unknownField.body.details).toContainEqual(expect.objectContaining({ path: 'recipients' }));
    expectErrorShape(other, 404);
  });
});
