import { describe, expect, it } from 'vitest';
import { markPaused, pauseOf } from '#lib/domain/sends/dispatch/paused-send.ts';
import { PAUSED_MIN_WAIT_MS } from '#lib/domain/sends/dispatch/tuning.ts';
import { jobOf } from '../../../support/dispatch-jobs.ts';
import { MemoryTemplatePauses } from '../../../support/memory/templates/template-pauses.ts';
import { recipientsOf, sendingWorld } from '../../../support/sending-world.ts';

/** A send whose template Meta paused (decisions §25): what the pause says of a job, and the send marked so. */
describe('a paused template’s send', () => {
  const pausedWorld = async () => {
    const world = await sendingWorld(3);
    const pauses = new MemoryTemplatePauses();
    return { ...world, pauses, deps: { ...world.deps, pauses } };
  };
  const job = jobOf(recipientsOf(3));

  it('says when the template’s pause ends, that it is disabled, or nothing when it may be sent', async () => {
    // Prepare
    const { deps, pauses, clock, status } = await pausedWorld();
    // Act: free, then paused by Meta, then disabled
    const free = await pauseOf(deps, job, await status());
    const { until_ms } = await pauses.pause(job.waba_id, job.template.id, clock.now());
    const paused = await pauseOf(deps, job, await status());
    await pauses.notified(job.waba_id, job.template.id, { kind: 'event', event: 'disabled', at_ms: clock.now() });
    const disabled = await pauseOf(deps, job, await status());
    const disabledAgain = await pauseOf(deps, job, await status());
    // Assess: the send is marked stopped with the reason once (decisions §34), as a 132016 refusal marks it
    expect(free).toBeUndefined();
    expect(paused).toBe(until_ms);
    expect(disabled).toBe('disabled');
    expect(disabledAgain).toBe('disabled');
    expect((await status()).stopped).toEqual({ code: '132016', title: 'The template is disabled' });
  });

  it('marks the send paused once with its send.paused event, and its job waits at least PAUSED_MIN_WAIT_MS, at most the recheck', async () => {
    // Prepare
    const { deps, sendTable, clock, status } = await pausedWorld();
    // Act
    const soon = await markPaused(deps, await status(), clock.now() + 10);
    const late = await markPaused(deps, await status(), clock.now() + 10 * deps.settings.pausedRecheckMs);
    // Assess
    expect(soon).toBe(PAUSED_MIN_WAIT_MS / 1000);
    expect(late).toBe(deps.settings.pausedRecheckMs / 1000);
    expect((await status()).paused).toBeDefined();
    expect(sendTable.events.map((e) => e.type)).toEqual(['send.paused']);
  });

  it('resumes a send marked paused once its template’s pause is over, with its send.resumed event', async () => {
    // Prepare: paused for its pause's time, which has passed
    const { deps, sendTable, clock, pauses, status } = await pausedWorld();
    const { until_ms } = await pauses.pause(job.waba_id, job.template.id, clock.now());
    await markPaused(deps, await status(), until_ms ?? 0);
    await clock.sleep((until_ms ?? 0) - clock.now());
    // Act
    const pause = await pauseOf(deps, job, await status());
    // Assess
    expect(pause).toBeUndefined();
    expect((await status()).paused).toBeUndefined();
    expect(sendTable.events.map((e) => e.type)).toEqual(['send.paused', 'send.resumed']);
    expect(await pauses.get(job.waba_id, job.template.id)).toBeNull();
  });
});
