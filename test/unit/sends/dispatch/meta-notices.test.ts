import { describe, expect, it } from 'vitest';
import { levelToAskAgain, pauseNoticed } from '#lib/domain/sends/dispatch/meta-notices.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { MemoryJobWaker, MemoryPausedJobs } from '../../../support/memory/sends/paused-jobs.ts';
import { MemoryThroughputStore } from '../../../support/memory/sends/throughput-store.ts';
import { MemoryTemplatePauses } from '../../../support/memory/templates/template-pauses.ts';

const WABA = 'w1';
const TEMPLATE = 't1';
const NOW = 1_780_000_000_000;
const status = (event: string, at: number) => ({ kind: 'template_status' as const, waba_id: WABA, template_id: TEMPLATE, at, event });

/** A template's pauses and one job asleep on it, due back long after now. */
async function pausingWorld() {
  const pauses = new MemoryTemplatePauses();
  const pausedJobs = new MemoryPausedJobs();
  const waker = new MemoryJobWaker();
  await pausedJobs.keep(WABA, TEMPLATE, { send_id: 's1', job: 0, receipt: 'receipt-1', due_ms: NOW + 300_000 });
  return { pauses, pausedJobs, waker, deps: { pauses, waking: { pausedJobs, waker }, log: silentLog } };
}

describe("what Meta's webhooks tell the dispatcher (decisions §19, §25)", () => {
  it("forgets a number's throughput level, so its next use asks again", async () => {
    // Prepare: a number whose level is known
    const levels = new MemoryThroughputStore();
    await levels.put('5215550001', { level: 'HIGH', checkedAtMs: NOW - 60_000 });
    // Act
    const outcome = await levelToAskAgain(
      { levels, log: silentLog },
      { kind: 'number_quality', waba_id: WABA, number_digits: '5215550001', event: 'DOWNGRADE', at: NOW },
    );
    // Assess
    expect(outcome).toBe('applied');
    expect(levels.levels.has('5215550001')).toBe(false);
  });

  it('keeps a pause and wakes nothing, then wakes the jobs asleep on the template when Meta lets it go', async () => {
    // Prepare
    const { pauses, waker, deps } = await pausingWorld();
    // Act: paused, then resumed a minute later
    await pauseNoticed(deps, status('PAUSED', NOW - 60_000), NOW);
    const pausedState = await pauses.get(WABA, TEMPLATE);
    const wokenWhilePaused = [...waker.woken];
    await pauseNoticed(deps, status('UNPAUSE', NOW), NOW);
    // Assess
    expect(pausedState?.state).toBe('paused');
    expect(wokenWhilePaused).toEqual([]);
    expect(await pauses.get(WABA, TEMPLATE)).toBeNull();
    expect(waker.woken).toEqual(['receipt-1']);
  });

  it('leaves the pauses and the jobs alone for a status that is no pause event', async () => {
    // Prepare
    const { pauses, pausedJobs, waker, deps } = await pausingWorld();
    // Act
    await pauseNoticed(deps, status('REJECTED', NOW), NOW);
    // Assess
    expect(await pauses.get(WABA, TEMPLATE)).toBeNull();
    expect(waker.woken).toEqual([]);
    expect(await pausedJobs.waiting(WABA, TEMPLATE, 10)).toHaveLength(1);
  });
});
