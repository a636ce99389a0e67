import { describe, expect, it } from 'vitest';
import type { ClaimLease } from '#lib/domain/sends/ports.ts';
import { blockAt, claimBlockAt, unsentOf } from '#lib/domain/sends/dispatch/claims.ts';
import { BLOCK } from '#lib/domain/sends/dispatch/tuning.ts';
import { crowdedWaitMs } from '#lib/domain/sends/dispatch/lanes.ts';
import { MAX_CROWDED_WAIT_MS } from '#lib/domain/sends/dispatch/tuning.ts';
import { jobOf, recipient, sendOfJobs } from '../../../support/dispatch-jobs.ts';
import { memorySends } from '../../../support/memory/sends/sends.ts';

/**
 * A block's claim alone (sending/claims.ts) on the in-memory ledger: which positions an invocation holds, and
 * what it still has to send, whoever held the block before.
 */
const NOW = Date.parse('2026-11-26T10:00:00Z');
const lease = (holder: string, untilMs = NOW + 60_000): ClaimLease => ({ holder, untilMs });

async function ledgerWithSend(total: number) {
  const { sends, blocks: ledger } = memorySends();
  const send = sendOfJobs(total, NOW);
  await sends.begin(send);
  await sends.settle(send, 'queued');
  const recipients = Array.from({ length: total }, (_, i) => recipient(`52155501${String(i).padStart(3, '0')}`));
  recipients[3] = { ...recipients[3], duplicate_of: 1 };
  return { ledger, job: jobOf(recipients) };
}

describe('a block’s claim (sending/claims.ts)', () => {
  it('cuts a job into blocks of 90 positions, each knowing how many it may send', async () => {
    // Prepare
    const { job } = await ledgerWithSend(200);
    // Act
    const blocks = [0, BLOCK, 2 * BLOCK].map((start) => blockAt(job, start).block);
    // Assess: the repeat at position 3 is not sendable
    expect(blocks).toEqual([
      { first: 0, size: 90, sendable: 89 },
      { first: 90, size: 90, sendable: 90 },
      { first: 180, size: 20, sendable: 20 },
    ]);
  });

  it('gives a block to one holder at a time: another finds it busy and holds none of it', async () => {
    // Prepare
    const { ledger, job } = await ledgerWithSend(90);
    // Act
    const first = await claimBlockAt(ledger, job, 0, lease('a'), NOW);
    const second = await claimBlockAt(ledger, job, 0, lease('b'), NOW);
    // Assess
    expect(first.busy).toBe(false);
    expect(unsentOf(first.mine, first.recorded, 0)).toHaveLength(89);
    expect(second).toMatchObject({ busy: true, mine: [] });
  });

  it('goes on from what was handed back: only the positions without an answer are still to send', async () => {
    // Prepare: the first holder answered positions 0–9 and handed the block back
    const { ledger, job } = await ledgerWithSend(90);
    const first = await claimBlockAt(ledger, job, 0, lease('a'), NOW);
    const answered = new Map(Array.from({ length: 10 }, (_, i) => [i, { kind: 'sent' as const, message_id: `wamid.${i}` }]));
    await ledger.handBack('send-1', first.block, first.lease, answered);
    // Act
    const next = await claimBlockAt(ledger, job, 0, lease('b'), NOW);
    // Assess
    expect(next.busy).toBe(false);
    expect(next.recorded.size).toBe(10);
    expect(unsentOf(next.mine, next.recorded, 0).map((p) => p.position)).toEqual(
      Array.from({ length: 80 }, (_, i) => i + 10).filter((p) => p !== 3),
    );
  });

  it('takes a dead holder’s block over, never sending again what it may have launched', async () => {
    // Prepare: the holder recorded launches up to offset 30 with 20 answers, then its lease ran out
    const { ledger, job } = await ledgerWithSend(90);
    const dead = await claimBlockAt(ledger, job, 0, lease('a', NOW + 1_000), NOW);
    const answered = new Map(Array.from({ length: 20 }, (_, i) => [i, { kind: 'sent' as const, message_id: `wamid.${i}` }]));
    await ledger.recordProgress('send-1', dead.block, dead.lease, { outcomes: answered, launchedTo: 30 });
    // Act
    const next = await claimBlockAt(ledger, job, 0, lease('b', NOW + 120_000), NOW + 2_000);
    // Assess: 20 answered, 10 unknown, the rest to send
    const unknown = [...next.recorded.values()].filter((o) => o.kind === 'failed' && o.code === 'outcome_unknown');
    expect(unknown).toHaveLength(10);
    expect(unsentOf(next.mine, next.recorded, 0)[0].position).toBe(30);
  });

  it('holds nothing of a settled block, and does not call it busy', async () => {
    // Prepare
    const { ledger, job } = await ledgerWithSend(5);
    const first = await claimBlockAt(ledger, job, 0, lease('a'), NOW);
    await ledger.settleBlock(
      'send-1',
      first.block,
      first.mine.map((p) =>
        p.repeat === undefined ? { kind: 'sent', message_id: `wamid.${p.position}` } : { kind: 'duplicate', of: p.repeat },
      ),
      first.lease,
    );
    // Act
    const again = await claimBlockAt(ledger, job, 0, lease('b'), NOW);
    // Assess
    expect(again).toMatchObject({ busy: false, mine: [] });
  });
});

describe('how long a job crowded off its number waits (sending/lanes.ts)', () => {
  it('waits until the number is free, or while its own send’s recipients ahead of it go, at most 30 s', () => {
    // Prepare / Act / Assess
    expect(crowdedWaitMs(2_000, 0, 12.5)).toBe(2_000);
    expect(crowdedWaitMs(2_000, 800, 12.5)).toBe(10_000);
    expect(crowdedWaitMs(2_000, 1_000_000, 12.5)).toBe(MAX_CROWDED_WAIT_MS);
    expect(crowdedWaitMs(-50, -10, 12.5)).toBe(0);
  });
});
