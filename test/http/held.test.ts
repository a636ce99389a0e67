import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator, token } from '../support/api.ts';
import { seedDirectory, waba } from '../support/seed.ts';
import { until } from '../support/until.ts';

/**
 * Messages Meta holds for quality assessment, on the running local stack (decisions §25, issue 35): a held
 * message counts `held`, not yet delivered, until Meta delivers or drops it. Client 544 has its own WABA and
 * number, and two templates the emulator holds.
 */
const CLIENT = 544;
const DID = '5215554401';
const NUMBER_ID = 'p544001';
const WABA = 'w544';
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const numberOf = (batch: number, i: number) => `52${run}${batch}${String(i).padStart(4, '0')}`;

const demo = JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8'));
const base = demo.wabas[0].templates.find((t: { name: string }) => t.name === 'order_update');
const delivered = { ...base, id: 't544d', name: 'held_then_delivered' };
const dropped = { ...base, id: 't544x', name: 'held_then_dropped' };
const owner = () => token({ clientId: CLIENT, campaigns: [] });
const status = async (sendId: string) => (await call('GET', `/v1/sends/${sendId}`, { token: await owner() })).body;

async function sendOf(template: string, batch: number) {
  const answer = await call('POST', `/v1/template/messages/${DID}`, {
    token: await owner(),
    body: {
      did: DID,
      type: 'template',
      channel: 'MSGCHAN',
      template: { name: template, language: 'en_US' },
      recipients: [0, 1, 2].map((i) => ({ to: numberOf(batch, i), params: { body: ['A'] } })),
    },
  });
  expect(answer.status).toBe(200);
  return answer.body.send_id as string;
}

beforeAll(async () => {
  await seedDirectory({
    clients: [{ client_id: CLIENT, client_name: 'Held' }],
    wabas: [waba(WABA, [delivered, dropped])],
    channels: [{ wa_id: DID, client_id: CLIENT, waba_id: WABA, phone_number_id: NUMBER_ID }],
  });
  await emulator('POST', 'wabas', { id: WABA, templates: [delivered, dropped], phone_numbers: [{ id: NUMBER_ID }] });
  await emulator('POST', 'templates/t544d/hold', { outcome: 'deliver', after_ms: 3_000 });
  await emulator('POST', 'templates/t544x/hold', { outcome: 'drop', after_ms: 3_000 });
}, 60_000);

describe('held for quality assessment (decisions §25)', () => {
  it('counts held messages as held, then delivered as Meta decides', { timeout: 120_000 }, async () => {
    // Act
    const sendId = await sendOf('held_then_delivered', 1);
    const whileHeld = await until(
      () => status(sendId),
      (s) => s.pending === 0,
      20_000,
    );
    const rows = (await call('GET', `/v1/sends/${sendId}/recipients`, { token: await owner() })).body.data;
    const after = await until(
      () => status(sendId),
      (s) => s.delivered === 3,
      20_000,
    );
    // Assess
    expect(whileHeld).toMatchObject({ sent: 3, held: 3, delivered: 0 });
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['held', 'held', 'held']);
    expect(after).toMatchObject({ sent: 3, held: 0, delivered: 3, failed: 0 });
  });

  it('counts a dropped held message failed with 132015', { timeout: 120_000 }, async () => {
    // Act
    const sendId = await sendOf('held_then_dropped', 2);
    await until(
      () => status(sendId),
      (s) => s.pending === 0,
      20_000,
    );
    const after = await until(
      () => status(sendId),
      (s) => s.failed === 3,
      20_000,
    );
    // Assess
    expect(after).toMatchObject({ sent: 0, held: 0, failed: 3, errors: [expect.objectContaining({ code: '132015', count: 3 })] });
  });
});
