import type { MemoryWorld } from '../world.ts';

/**
 * The status path's usual start on the in-memory world: send `s1` of `block.size` recipients from client 7's demo
 * number (5215550001, WABA 100200300), its one block claimed by a live holder; the lease, to settle or hand it back.
 */
export async function claimedSendOfSeven(world: MemoryWorld, block: { first: number; size: number; sendable: number }) {
  await world.sends.begin({
    send_id: 's1',
    client_id: 7,
    did: '5215550001',
    template: { name: 'order_update', language: 'es' },
    status: 'queuing',
    created_at: 'now',
    total: block.size,
    jobs: 1,
  });
  const lease = { holder: 'h', untilMs: Date.now() + 60_000 };
  await world.blocks.claimBlock('s1', block, lease, Date.now());
  return lease;
}
