import { describe, expect, it } from 'vitest';
import { ABANDONED, abandonJob } from '#lib/domain/sends/dispatch/abandon-job.ts';
import { ABANDONED_HELD_RETRY_S } from '#lib/domain/sends/dispatch/tuning.ts';
import { jobOf } from '../../../support/dispatch-jobs.ts';
import { recipientsOf, sendingWorld } from '../../../support/sending-world.ts';

/** A job whose retries are spent (issue 23): what is not settled yet is settled failed, nothing is sent. */
describe('abandonJob', () => {
  it('drops a job whose send is unknown or no longer queued: nothing of it is settled', async () => {
    // Prepare
    const { deps, sendTable } = await sendingWorld(3, { status: 'abandoned' });
    // Act
    const ofAbandoned = await abandonJob(deps, jobOf(recipientsOf(3)));
    const ofUnknown = await abandonJob(deps, jobOf(recipientsOf(3), { send_id: 'send-2' }));
    // Assess
    expect(ofAbandoned).toEqual({ outcome: 'dropped', reason: 'send abandoned' });
    expect(ofUnknown).toEqual({ outcome: 'dropped', reason: 'unknown send' });
    expect(sendTable.blocks.size).toBe(0);
  });

  it('leaves a block a live invocation holds to it, abandons the rest, and comes back after ABANDONED_HELD_RETRY_S', async () => {
    // Prepare: 100 recipients, begun; the first block (90) held by a live invocation
    const { deps, blocks, sendTable, clock, calls } = await sendingWorld(100);
    await blocks.beginJob('send-1', 1);
    await blocks.claimBlock('send-1', { first: 0, size: 90, sendable: 90 }, { holder: 'live', untilMs: clock.now() + 60_000 }, clock.now());
    // Act
    const result = await abandonJob(deps, jobOf(recipientsOf(100)));
    // Assess
    expect(result).toEqual({ outcome: 'retry_later', reason: 'blocks held by a live invocation', afterSeconds: ABANDONED_HELD_RETRY_S });
    expect(sendTable.blocks.get('send-1|0')).toMatchObject({ state: 'claimed', holder: 'live' });
    expect(sendTable.blocks.get('send-1|90')).toMatchObject({ state: 'settled', outcomes: Array(10).fill(ABANDONED) });
    expect(calls).toEqual([]);
  });
});
