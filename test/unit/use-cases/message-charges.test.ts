import { describe, expect, it } from 'vitest';
import { messageReference } from '#lib/domain/shared/message-status.ts';
import { applyNotifications } from '#lib/domain/inbound/meta-notifications.ts';
import type { MetaNotification } from '#lib/domain/inbound/notifications.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { memoryWorld } from '../../support/memory/world.ts';
import { MemoryVolumeTiers } from '../../support/memory/money/volume-tiers.ts';

/**
 * What the status path charges (decisions §26, issue 41), as the use case applies Meta's notifications on
 * in-memory stores: the tier a WABA's month has reached, and a launch whose outcome was unknown.
 */
const WABA = '100200300';
const APRIL = Date.parse('2026-04-10T12:00:00Z');
const BRAZIL = ['5511987650001', '5511987650002', '5511987650003'];
const utility = { category: 'utility', type: 'regular', billable: true };

async function sendOf(outcomes: Parameters<ReturnType<typeof memoryWorld>['blocks']['settleBlock']>[2]) {
  const world = memoryWorld();
  const deps = { ...world, tiers: new MemoryVolumeTiers(world.sendTable) };
  await world.sends.begin({
    send_id: 's1',
    client_id: 7,
    did: '5215550001',
    template: { name: 'order_update', language: 'es' },
    status: 'queuing',
    created_at: 'now',
    total: outcomes.length,
    jobs: 1,
  });
  const block = { first: 0, size: outcomes.length, sendable: outcomes.length };
  const lease = { holder: 'h', untilMs: Date.now() + 60_000 };
  await world.blocks.claimBlock('s1', block, lease, Date.now());
  await world.blocks.settleBlock('s1', block, outcomes, lease);
  return { world, deps };
}

const delivered = (index: number, at: number): MetaNotification => ({
  kind: 'message_status',
  message_id: `wamid.${index}`,
  status: 'delivered',
  reference: messageReference('s1', 0, index),
  at,
  waba_id: WABA,
  recipient: BRAZIL[index],
  pricing: utility,
});

describe('charges of a WABA’s month (volume tiers)', () => {
  it('prices the messages after Meta’s tier update at the new tier’s rate, mid-month', async () => {
    // Prepare: three messages to Brazil delivered in April 2026, whose card gives utility tiers
    const { world, deps } = await sendOf(BRAZIL.map((_, i) => ({ kind: 'sent' as const, message_id: `wamid.${i}` })));
    const tiers = rateCards.on('2026-04-10').tiers!.Brazil.utility!;
    const tierUpdate: MetaNotification = {
      kind: 'pricing_tier',
      waba_id: WABA,
      at: APRIL,
      pricing_category: 'UTILITY',
      tier: `${tiers[1].from}:${tiers[1].to}`,
      effective_month: '2026-04',
      region: 'Brazil',
    };
    // Act: one delivered before the update, two after it
    await applyNotifications(deps, [{ notification: delivered(0, APRIL) }]);
    const outcomes = await applyNotifications(deps, [{ notification: tierUpdate }]);
    await applyNotifications(deps, [{ notification: delivered(1, APRIL + 1000) }, { notification: delivered(2, APRIL + 2000) }]);
    // Assess
    const costs = [0, 1, 2].map((i) => world.sendTable.messages.get(`s1|${i}`)?.cost_micros);
    expect(outcomes).toEqual(['applied']);
    expect(costs).toEqual([tiers[0].rate, tiers[1].rate, tiers[1].rate].map((rate) => Math.round(rate * 1e6)));
    expect(world.sendTable.monthVolumes.get(`${WABA}|2026-04|Brazil|utility`)).toBe(3);
  });

  it('counts the month’s charges toward the tier without Meta’s word: the base rate until the count says more', async () => {
    // Prepare
    const { world, deps } = await sendOf(BRAZIL.map((_, i) => ({ kind: 'sent' as const, message_id: `wamid.${i}` })));
    const first = rateCards.on('2026-04-10').tiers!.Brazil.utility![0];
    // Act
    await applyNotifications(
      deps,
      [0, 1, 2].map((i) => ({ notification: delivered(i, APRIL + i) })),
    );
    // Assess
    expect([0, 1, 2].map((i) => world.sendTable.messages.get(`s1|${i}`)?.cost_micros)).toEqual(
      [1, 2, 3].map(() => Math.round(first.rate * 1e6)),
    );
  });
});

describe('a launch whose outcome was unknown', () => {
  it('is charged, and counted delivered instead of failed, when Meta reports its message delivered', async () => {
    // Prepare: the dispatcher recorded no answer for position 0 (a crash, a timeout)
    const { world, deps } = await sendOf([{ kind: 'failed', code: 'outcome_unknown', title: 'No answer from the upstream in time' }]);
    // Act
    const outcomes = await applyNotifications(deps, [{ notification: delivered(0, APRIL) }]);
    // Assess
    const send = await world.sends.get('s1');
    expect(outcomes).toEqual(['applied']);
    expect(send?.counts).toMatchObject({ sent: 1, delivered: 1, failed: 0 });
    expect(send?.charges?.utility).toMatchObject({ messages: 1, billable: 1 });
    expect(world.sendTable.messages.get('s1|0')?.cost_micros).toBeGreaterThan(0);
  });
});
