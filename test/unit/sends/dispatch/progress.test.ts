import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProgressRecords } from '#lib/domain/sends/dispatch/progress.ts';
import { MARK_STEP } from '#lib/domain/sends/dispatch/tuning.ts';
import { EventClock } from '../../../support/event-clock.ts';

/**
 * A block's progress records alone (issue 33), on a discrete-event clock: launches at a number's pace, each record
 * written after a random delay. Whatever the delays, nothing is launched past what a completed record allows, at
 * most a record per MARK_STEP launches is written, and a refused record stops the launches.
 */
async function launchBlock(size: number, intervalMs: number, writeMs: () => number, refuseFrom = Number.POSITIVE_INFINITY) {
  const clock = new EventClock();
  /** The records written, and the offsets launched with the highest completed record's limit at that moment. */
  const records: number[] = [];
  let recorded = 0;
  const launched: { offset: number; allowed: number; at: number }[] = [];
  const progress = new ProgressRecords(size, async (launchedTo) => {
    await clock.sleep(writeMs());
    if (records.length >= refuseFrom) return false;
    records.push(launchedTo);
    recorded = Math.max(recorded, launchedTo);
    return true;
  });
  await clock.run(
    (async () => {
      for (let offset = 0; offset < size; offset++) {
        if (!(await progress.mayLaunch(offset))) return;
        launched.push({ offset, allowed: recorded, at: clock.now() });
        await clock.sleep(intervalMs);
      }
    })(),
  );
  return { records, launched };
}

describe('a block’s progress records (sending/progress.ts)', () => {
  it('never launches past what a completed record allows, and writes at most one record per step, whatever the write takes (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 20 }),
        async (size, intervalMs, delays) => {
          // Act
          let n = 0;
          const { records, launched } = await launchBlock(size, intervalMs, () => delays[n++ % delays.length]);
          // Assess
          expect(launched).toHaveLength(size);
          for (const { offset, allowed } of launched) expect(offset).toBeLessThan(allowed);
          expect(records.length).toBeLessThanOrEqual(Math.ceil(size / MARK_STEP) + 1);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('lets a launch seldom wait: a write shorter than half a step of launches costs the launches nothing after the first', async () => {
    // Act: 90 launches 14 ms apart, each write 50 ms (half a step is 70 ms)
    const { launched } = await launchBlock(90, 14, () => 50);
    // Assess: only the first record is waited for; every launch after it is one interval after the one before
    expect(launched).toHaveLength(90);
    for (let i = 1; i < launched.length; i++) expect(launched[i].at - launched[i - 1].at).toBe(14);
  });

  it('stops at once when a record is refused (another invocation took the block over)', async () => {
    // Act: the third record is refused
    const { records, launched } = await launchBlock(90, 14, () => 5, 2);
    // Assess: nothing launched past the second record's limit
    expect(records).toHaveLength(2);
    expect(Math.max(...launched.map((l) => l.offset))).toBeLessThan(records[1]);
  });
});
