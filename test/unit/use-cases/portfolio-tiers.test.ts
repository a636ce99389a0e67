import { describe, expect, it } from 'vitest';
import { applyNotifications } from '#lib/domain/inbound/meta-notifications.ts';
import type { MetaNotification } from '#lib/domain/inbound/notifications.ts';
import { rateCards } from '#lib/domain/money/pricing/cards/index.ts';
import { messageReference } from '#lib/domain/shared/message-status.ts';
import { MemoryVolumeTiers } from '../../support/memory/money/volume-tiers.ts';
import { MemoryDirectoryStore } from '../../support/memory/shared/directory-store.ts';
import { memoryWorld } from '../../support/memory/world.ts';

/**
 * Volume tiers counted per business portfolio (decisions §31, issue 53 item 2), as the use case applies Meta's
 * notifications on in-memory stores: WABAs A and B share the portfolio `bp-shared`, C has its own. Each WABA sends
 * one send of Brazil utility messages in April 2026, whose card gives utility tiers.
 */
const [A, B, C] = ['waba-a', 'waba-b', 'waba-c'];
const PORTFOLIO = 'bp-shared';
const APRIL = Date.parse('2026-04-10T12:00:00Z');
const BRAZIL = (n: number) => `55119876${String(n).padStart(5, '0')}`;
const utility = { category: 'utility', type: 'regular', billable: true };
const TIERS = rateCards.on('2026-04-10').tiers!.Brazil.utility!;
const micros = (rate: number) => Math.round(rate * 1e6);

const wabaEntry = (waba_id: string, business_id: string) => ({
  waba_id,
  waba_name: waba_id,
  business_id,
  business_name: business_id,
  namespace: `ns_${waba_id}`,
});

/** A world whose tiers know the three WABAs' portfolios, and one send of `size` messages from each WABA. */
async function portfolioWorld(size: number) {
  const world = memoryWorld();
  const directory = MemoryDirectoryStore.fromFile({
    wabas: [wabaEntry(A, PORTFOLIO), wabaEntry(B, PORTFOLIO), wabaEntry(C, 'bp-other')],
  });
  const deps = { ...world, tiers: new MemoryVolumeTiers(world.sendTable, directory) };
  for (const waba of [A, B, C]) {
    const sendId = `s-${waba}`;
    await world.sends.begin({
      send_id: sendId,
      client_id: 7,
      did: '5215550001',
      template: { name: 'order_update', language: 'es' },
      status: 'queuing',
      created_at: 'now',
      total: size,
      jobs: 1,
    });
    const block = { first: 0, size, sendable: size };
    const lease = { holder: 'h', untilMs: Date.now() + 60_000 };
    const outcomes = Array.from({ length: size }, (_, i) => ({ kind: 'sent' as const, message_id: `wamid.${waba}.${i}` }));
    await world.blocks.claimBlock(sendId, block, lease, Date.now());
    await world.blocks.settleBlock(sendId, block, outcomes, lease);
  }
  return { world, deps };
}

/** Meta's `delivered` of the WABA's message `index`, priced as utility to Brazil. */
const delivered = (waba: string, index: number, at = APRIL): { notification: MetaNotification } => ({
  notification: {
    kind: 'message_status',
    message_id: `wamid.${waba}.${index}`,
    status: 'delivered',
    reference: messageReference(`s-${waba}`, 0, index),
    at,
    waba_id: waba,
    recipient: BRAZIL(index),
    pricing: utility,
  },
});

type World = Awaited<ReturnType<typeof portfolioWorld>>['world'];
const costOf = (world: World, waba: string, index: number) => world.sendTable.messages.get(`s-${waba}|${index}`)?.cost_micros;

describe('volume tiers counted per business portfolio (decisions §31)', () => {
  it('prices two WABAs of one portfolio on their joint count: each one’s messages move the other’s tier', async () => {
    // Prepare: the portfolio's April count of Brazil utility is one message short of the first tier's end
    const { world, deps } = await portfolioWorld(2);
    world.sendTable.monthVolumes.set(`${PORTFOLIO}|2026-04|Brazil|utility`, TIERS[0].to! - 1);
    // Act: A's message is the first tier's last; B's is the second tier's first; then A's second
    await applyNotifications(deps, [delivered(A, 0)]);
    await applyNotifications(deps, [delivered(B, 0, APRIL + 1_000)]);
    await applyNotifications(deps, [delivered(A, 1, APRIL + 2_000)]);
    // Assess
    expect([costOf(world, A, 0), costOf(world, B, 0), costOf(world, A, 1)]).toEqual(
      [TIERS[0].rate, TIERS[1].rate, TIERS[1].rate].map(micros),
    );
    expect(world.sendTable.monthVolumes.get(`${PORTFOLIO}|2026-04|Brazil|utility`)).toBe(TIERS[0].to! + 2);
    expect([A, B].map((waba) => world.sendTable.monthVolumes.has(`${waba}|2026-04|Brazil|utility`))).toEqual([false, false]);
  });

  it('leaves a WABA of another portfolio on its own count', async () => {
    // Prepare: the shared portfolio is past the first tier
    const { world, deps } = await portfolioWorld(1);
    world.sendTable.monthVolumes.set(`${PORTFOLIO}|2026-04|Brazil|utility`, TIERS[1].from);
    // Act
    await applyNotifications(deps, [delivered(B, 0), delivered(C, 0)]);
    // Assess
    expect([costOf(world, B, 0), costOf(world, C, 0)]).toEqual([TIERS[1].rate, TIERS[0].rate].map(micros));
    expect(world.sendTable.monthVolumes.get('bp-other|2026-04|Brazil|utility')).toBe(1);
  });

  it('applies Meta’s tier update of one WABA to every WABA of its portfolio, and to no other', async () => {
    // Prepare: Meta says A reached the second tier in April
    const { world, deps } = await portfolioWorld(1);
    const tierUpdate: MetaNotification = {
      kind: 'pricing_tier',
      waba_id: A,
      at: APRIL,
      pricing_category: 'UTILITY',
      tier: `${TIERS[1].from}:${TIERS[1].to}`,
      effective_month: '2026-04',
      region: 'Brazil',
    };
    // Act
    const outcomes = await applyNotifications(deps, [{ notification: tierUpdate }]);
    await applyNotifications(deps, [delivered(A, 0, APRIL + 1_000), delivered(B, 0, APRIL + 1_000), delivered(C, 0, APRIL + 1_000)]);
    // Assess
    expect(outcomes).toEqual(['applied']);
    expect([A, B, C].map((waba) => costOf(world, waba, 0))).toEqual([TIERS[1].rate, TIERS[1].rate, TIERS[0].rate].map(micros));
  });

  it('counts a WABA the directory does not know alone, under its own id', async () => {
    // Prepare: a directory without the WABA
    const world = memoryWorld();
    const tiers = new MemoryVolumeTiers(world.sendTable, MemoryDirectoryStore.fromFile({}));
    // Act
    const portfolio = await tiers.portfolioOf('waba-unknown');
    // Assess
    expect(portfolio).toBe('waba-unknown');
  });
});
