import { describe, expect, it } from 'vitest';
import { endRun, mayLaunch, takeJob } from '#lib/domain/sends/dispatch/run.ts';
import { PACE_SHARE, QUEUING_LOOK_MS, QUEUING_LOOKS, QUEUING_RETRY_S } from '#lib/domain/sends/dispatch/tuning.ts';
import { jobOf } from '../../../support/dispatch-jobs.ts';
import { recipientsOf, sendingWorld, takenRun } from '../../../support/sending-world.ts';

/** A job's run (run.ts): taking the job up, and the one state its steps share. */
describe('a job’s run', () => {
  it('takes a job up: how it books its number, its number’s pace, begun, and nothing yet that ends it', async () => {
    // Prepare
    const { deps, blocks, clock } = await sendingWorld(3);
    // Act
    const run = await takenRun(deps, jobOf(recipientsOf(3)));
    // Assess
    expect(run).toMatchObject({ booking: { shared: false }, startedAt: clock.now(), number: { phoneNumberId: '110001' } });
    expect(run.intervalMs).toBeCloseTo(1000 / (80 * PACE_SHARE));
    expect(run.ending).toBeUndefined();
    expect(mayLaunch(run, clock.now())).toBe(true);
    expect(await blocks.settleJob('send-1', 1, 3, { kind: 'expired' })).toBe(false);
  });

  it('brings a job of a send still queuing back after QUEUING_RETRY_S, having looked QUEUING_LOOKS times', async () => {
    // Prepare
    const { deps, clock } = await sendingWorld(3, { status: 'queuing' });
    const began = clock.now();
    // Act
    const result = await takeJob(deps, jobOf(recipientsOf(3)));
    // Assess
    expect(result).toEqual({ outcome: 'retry_later', reason: 'send still queuing', afterSeconds: QUEUING_RETRY_S });
    expect(clock.now() - began).toBe(QUEUING_LOOKS * QUEUING_LOOK_MS);
  });

  it('settles a job of an expired send whole, in one write, sending nothing', async () => {
    // Prepare: a TTL of a second, two seconds gone
    const { deps, clock, calls, status } = await sendingWorld(3);
    await clock.sleep(2_000);
    // Act
    const result = await takeJob(deps, jobOf(recipientsOf(3), { message_send_ttl_seconds: 1 }));
    // Assess
    expect(result).toEqual({ outcome: 'done' });
    expect((await status()).counts).toMatchObject({ expired: 3, sent: 0 });
    expect(calls).toEqual([]);
  });

  it('drops the job of an unknown send', async () => {
    // Prepare
    const { deps } = await sendingWorld(3);
    // Act
    const result = await takeJob(deps, jobOf(recipientsOf(3), { send_id: 'send-2' }));
    // Assess
    expect(result).toEqual({ outcome: 'dropped', reason: 'unknown send' });
  });

  it('keeps one ending, the one that says most of when the job comes back', async () => {
    // Prepare
    const { deps } = await sendingWorld(3);
    const run = await takenRun(deps, jobOf(recipientsOf(3)));
    const endings = [{ why: 'held elsewhere' }, { why: 'crowded', waitMs: 2_000 }, { why: 'sliced' }, { why: 'time up' }] as const;
    // Act
    const kept = endings.map((ending) => {
      endRun(run, ending);
      return run.ending?.why;
    });
    // Assess: held elsewhere < sliced < crowded < time up
    expect(kept).toEqual(['held elsewhere', 'crowded', 'crowded', 'time up']);
  });
});
