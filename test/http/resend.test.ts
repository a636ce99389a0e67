import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, expectErrorShape, token } from '../support/api.ts';
import { seedDirectory, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Resending what failed, on the running local stack (decisions §25, issue 35). Client 543 has its own WABA and
 * number; the emulator refuses some recipients once, each with its own code.
 */
const CLIENT = 543;
const DID = '5215554301';
const NUMBER_ID = 'p543001';
const WABA = 'w543';
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const numberOf = (batch: number, i: number) => `52${run}${batch}${String(i).padStart(4, '0')}`;

const demo = JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8'));
const orderUpdate = { ...demo.wabas[0].templates.find((t: { name: string }) => t.name === 'order_update'), id: 't543' };
const owner = () => token({ clientId: CLIENT, campaigns: [] });
const status = async (sendId: string) => (await call('GET', `/v1/sends/${sendId}`, { token: await owner() })).body;
const settled = (sendId: string) =>
  until(
    () => status(sendId),
    (s) => s.pending === 0,
    60_000,
  );
const refuse = (to: string, code: number) =>
  emulator('POST', 'faults', { path: `/${NUMBER_ID}/messages`, body: `"to":"${to}"`, status: 400, code, times: 1 });
const accepted = async (to: string) => ((await emulator('GET', `sent?to=${to}`)).sent as unknown[]).length;
const resend = async (sendId: string, which: string, key?: string, query = '') =>
  call('POST', `/v1/sends/${sendId}/resend${query}`, {
    token: await owner(),
    body: { which },
    ...(key && { headers: { 'idempotency-key': key } }),
  });

beforeAll(async () => {
  await seedDirectory({
    clients: [{ client_id: CLIENT, client_name: 'Resends' }],
    wabas: [waba(WABA, [orderUpdate])],
    channels: [{ wa_id: DID, client_id: CLIENT, waba_id: WABA, phone_number_id: NUMBER_ID }],
  });
  await emulator('POST', 'wabas', { id: WABA, templates: [orderUpdate], phone_numbers: [{ id: NUMBER_ID }] });
}, 60_000);

describe('resending (decisions §25)', () => {
  const numbers = Array.from({ length: 100 }, (_, i) => numberOf(1, i));
  // 20 refused: 10 undeliverable (131026), 5 opted out (131050), 5 outside the window (131047, worth another try)
  const refusals = numbers.slice(0, 20).map((to, k) => ({ to, code: k < 10 ? 131026 : k < 15 ? 131050 : 131047 }));
  const retryable = refusals.filter((r) => r.code === 131047).map((r) => r.to);
  let original: string;

  beforeAll(async () => {
    for (const { to, code } of refusals) await refuse(to, code);
    const sent = await call('POST', `/v1/template/messages/${DID}`, {
      token: await owner(),
      body: {
        did: DID,
        type: 'template',
        channel: 'MSGCHAN',
        template: { name: 'order_update', language: 'en_US' },
        recipients: numbers.map((to) => ({ to, params: { body: [`A-${to}`] } })),
      },
    });
    expect(sent.status).toBe(200);
    original = sent.body.send_id;
    expect(await settled(original)).toMatchObject({ sent: 80, failed: 20 });
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
    const resent = await settled(first.body.send_id);
    const source = await status(original);
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

  it('answers 409 nothing_to_resend when no recipient is left to resend, 400 for another `which`, 404 for another client’s send', async () => {
    // Prepare: the resend itself failed nobody
    const resent = (await status(original)).resent_as[0];
    // Act
    const nothing = await resend(resent, 'failed');
    const unknownWhich = await resend(original, 'everyone');
    const other = await call('POST', `/v1/sends/${original}/resend`, {
      token: await token({ clientId: 7, campaigns: [31] }),
      body: { which: 'failed' },
    });
    // Assess
    expectErrorShape(nothing, 409, 'nothing_to_resend');
    expectErrorShape(unknownWhich, 400);
    expectErrorShape(other, 404);
  });
});
