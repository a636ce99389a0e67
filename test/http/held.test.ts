import { beforeAll, describe, expect, it } from 'vitest';
import { call, emulator } from '../support/api.ts';
import { demoTemplateAs, OwnClient } from '../support/own-client.ts';

/**
 * Messages Meta holds for quality assessment, on the running local stack (decisions §25, issue 35): a held
 * message counts `held`, not yet delivered, until Meta delivers or drops it. Client 544 has its own WABA and
 * number, and two templates the emulator holds.
 */
const client = new OwnClient(544);
const run = String(Math.floor(Math.random() * 1e4)).padStart(4, '0');
const threeOf = (batch: number) => [0, 1, 2].map((i) => `52${run}${batch}${String(i).padStart(4, '0')}`);
const delivered = demoTemplateAs('order_update', { id: 't544d', name: 'held_then_delivered' });
const dropped = demoTemplateAs('order_update', { id: 't544x', name: 'held_then_dropped' });

beforeAll(async () => {
  await client.seed('Held', [delivered, dropped]);
  await emulator('POST', 'templates/t544d/hold', { outcome: 'deliver', after_ms: 3_000 });
  await emulator('POST', 'templates/t544x/hold', { outcome: 'drop', after_ms: 3_000 });
}, 60_000);

describe('held for quality assessment (decisions §25)', () => {
  it('counts held messages as held, then delivered as Meta decides', { timeout: 120_000 }, async () => {
    // Act
    const sendId = (await client.send('held_then_delivered', threeOf(1))).body.send_id;
    const whileHeld = await client.settled(sendId);
    const rows = (await call('GET', `/v1/sends/${sendId}/recipients`, { token: await client.token() })).body.data;
    const after = await client.settled(sendId, (s) => s.delivered === 3);
    // Assess
    expect(whileHeld).toMatchObject({ sent: 3, held: 3, delivered: 0 });
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['held', 'held', 'held']);
    expect(after).toMatchObject({ sent: 3, held: 0, delivered: 3, failed: 0 });
  });

  it('counts a dropped held message failed with 132015', { timeout: 120_000 }, async () => {
    // Act
    const sendId = (await client.send('held_then_dropped', threeOf(2))).body.send_id;
    await client.settled(sendId);
    const after = await client.settled(sendId, (s) => s.failed === 3);
    // Assess
    expect(after).toMatchObject({ sent: 0, held: 0, failed: 3, errors: [expect.objectContaining({ code: '132015', count: 3 })] });
  });
});
