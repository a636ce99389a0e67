import { describe, expect, it } from 'vitest';
import { applyNotification } from '#lib/domain/inbound/meta-notifications.ts';
import type { MetaNotification } from '#lib/domain/inbound/notifications.ts';
import { PAUSE_HISTORY_KEPT } from '#lib/domain/templates/pause-events.ts';
import { listTemplates } from '#lib/domain/templates/list-templates.ts';
import { notificationsOf } from '#lib/adapters/meta/webhook-payload.ts';
import { MemoryJobWaker, MemoryPausedJobs } from '../support/memory/sends/paused-jobs.ts';
import { MemoryTemplatePauses } from '../support/memory/templates/template-pauses.ts';
import { callerOf, memoryWorld } from '../support/memory/world.ts';

/**
 * Pause history (issue 55 item 4, decisions §34): a template's pauses are counted and the last few kept with
 * their start and end; Meta's third quality pause disables it, its records show DISABLED and the jobs asleep on
 * it wake (to fail their rest with 132016). In memory, on the same rules as the table.
 */
const WABA = '100200300';
const TEMPLATE = '9001';
const HOUR = 3_600_000;
const T0 = 1_780_000_000_000;
const iso = (ms: number) => new Date(ms).toISOString();
const status = (event: string, at: number, title?: string): MetaNotification => ({
  kind: 'template_status',
  waba_id: WABA,
  template_id: TEMPLATE,
  at,
  event,
  reason: 'NONE',
  ...(title && { title }),
});

function pausingWorld() {
  const world = memoryWorld();
  const pauses = new MemoryTemplatePauses();
  const pausedJobs = new MemoryPausedJobs();
  const waker = new MemoryJobWaker();
  return { world, pauses, pausedJobs, waker, deps: { ...world, pauses, waking: { pausedJobs, waker } } };
}

describe('pause history (decisions §34)', () => {
  it('counts the pauses and keeps each one’s start and end; the third quality pause disables the template', async () => {
    // Prepare
    const { pauses } = pausingWorld();
    const at = (n: number) => T0 + n * 24 * HOUR;
    // Act: paused and let go twice, then paused a third time
    await pauses.notified(WABA, TEMPLATE, { kind: 'event', event: 'paused', at_ms: at(0) });
    await pauses.notified(WABA, TEMPLATE, { kind: 'event', event: 'resumed', at_ms: at(0) + HOUR });
    const afterFirst = await pauses.summary(WABA, TEMPLATE);
    await pauses.notified(WABA, TEMPLATE, { kind: 'event', event: 'paused', at_ms: at(1) });
    const afterSecond = await pauses.summary(WABA, TEMPLATE);
    await pauses.resume(WABA, TEMPLATE, at(1) + 7 * HOUR);
    const third = await pauses.notified(WABA, TEMPLATE, { kind: 'event', event: 'paused', at_ms: at(2) });
    const afterThird = await pauses.summary(WABA, TEMPLATE);
    // Assess
    expect(afterFirst).toEqual({ count: 1, history: [{ paused_at: iso(at(0)), until: iso(at(0) + 3 * HOUR) }], next_red_disables: false });
    expect(afterSecond).toEqual({
      count: 2,
      history: [
        { paused_at: iso(at(0)), until: iso(at(0) + 3 * HOUR) },
        { paused_at: iso(at(1)), until: iso(at(1) + 6 * HOUR) },
      ],
      next_red_disables: true,
    });
    expect(third).toEqual({ state: 'disabled', since_ms: at(2), pauses: 2 });
    expect(afterThird).toEqual({ ...afterSecond, next_red_disables: false, disabled_at: iso(at(2)) });
  });

  it('counts a 132015 refusal as a pause and not again Meta’s event of it; a pacing pause is neither counted nor disabling', async () => {
    // Prepare
    const { pauses } = pausingWorld();
    // Act: a refusal, then Meta's PAUSED of the same pause; later two pacing pauses
    await pauses.pause(WABA, TEMPLATE, T0);
    await pauses.notified(WABA, TEMPLATE, { kind: 'event', event: 'paused', at_ms: T0 + 1_000 });
    await pauses.notified(WABA, TEMPLATE, { kind: 'event', event: 'resumed', at_ms: T0 + HOUR });
    await pauses.notified(WABA, TEMPLATE, { kind: 'event', event: 'paused', at_ms: T0 + 2 * HOUR, pacing: true });
    await pauses.notified(WABA, TEMPLATE, { kind: 'event', event: 'resumed', at_ms: T0 + 3 * HOUR });
    await pauses.notified(WABA, TEMPLATE, { kind: 'event', event: 'paused', at_ms: T0 + 4 * HOUR, pacing: true });
    const summary = await pauses.summary(WABA, TEMPLATE);
    // Assess
    expect(summary.count).toBe(1);
    expect(summary.next_red_disables).toBe(false);
    expect(summary.history.map((h) => h.pacing ?? false)).toEqual([false, true, true]);
    expect((await pauses.get(WABA, TEMPLATE))?.state).toBe('paused');
  });

  it(`keeps the last ${PAUSE_HISTORY_KEPT} pauses while the count goes on (refusals after Meta let it go)`, async () => {
    // Prepare
    const { pauses } = pausingWorld();
    // Act: many refusals, each after the last pause was over (a refusal never disables: Meta said paused)
    for (let n = 0; n < PAUSE_HISTORY_KEPT + 3; n++) {
      await pauses.pause(WABA, TEMPLATE, T0 + n * 10 * HOUR);
      await pauses.resume(WABA, TEMPLATE, T0 + n * 10 * HOUR + 7 * HOUR);
    }
    const summary = await pauses.summary(WABA, TEMPLATE);
    // Assess
    expect(summary.count).toBe(PAUSE_HISTORY_KEPT + 3);
    expect(summary.history).toHaveLength(PAUSE_HISTORY_KEPT);
    expect(summary.history[0].paused_at).toBe(iso(T0 + 3 * 10 * HOUR));
    expect(summary.history.at(-1)?.paused_at).toBe(iso(T0 + (PAUSE_HISTORY_KEPT + 2) * 10 * HOUR));
  });

  it('shows the pauses on the template’s listing entry; a third PAUSED shows it DISABLED and wakes the jobs asleep on it', async () => {
    // Prepare: paused twice (Meta's titles), let go each time, a job asleep on the template
    const { world, pauses, pausedJobs, waker, deps } = pausingWorld();
    await applyNotification(deps, status('PAUSED', T0, 'FIRST_PAUSE'));
    await applyNotification(deps, status('UNPAUSE', T0 + 3 * HOUR, 'UNPAUSE'));
    await applyNotification(deps, status('PAUSED', T0 + 24 * HOUR, 'SECOND_PAUSE'));
    await pausedJobs.keep(WABA, TEMPLATE, { send_id: 's1', job: 0, receipt: 'receipt-1', due_ms: Date.now() + HOUR });
    const listed = async () =>
      (await listTemplates(world, callerOf(7, { campaigns: [31, 32] }), { template_meta_id: TEMPLATE, client_id: 7 })).data[0] as {
        meta_template: { status: string };
        pauses?: unknown;
      };
    const whilePaused = await listed();
    await applyNotification(deps, status('UNPAUSE', T0 + 30 * HOUR, 'UNPAUSE'));
    // Act: Meta pauses it a third time (the service counts it: disabled)
    await applyNotification(deps, status('PAUSED', T0 + 48 * HOUR));
    const after = await listed();
    // Assess
    expect(whilePaused.meta_template.status).toBe('PAUSED');
    expect(whilePaused.pauses).toEqual({
      count: 2,
      history: [
        { paused_at: iso(T0), until: iso(T0 + 3 * HOUR) },
        { paused_at: iso(T0 + 24 * HOUR), until: iso(T0 + 30 * HOUR) },
      ],
      next_red_disables: true,
    });
    expect(after.meta_template.status).toBe('DISABLED');
    expect(after.pauses).toMatchObject({ count: 2, next_red_disables: false, disabled_at: iso(T0 + 48 * HOUR) });
    expect((await pauses.get(WABA, TEMPLATE))?.state).toBe('disabled');
    expect(waker.woken).toEqual(['receipt-1']);
    expect(world.publisher.published.filter((e) => e.type === 'template.status_changed').length).toBeGreaterThan(0);
  });

  it('reads Meta’s pause title from the webhook, so a pacing pause is told apart', () => {
    // Act
    const [paused] = notificationsOf({
      waba_id: WABA,
      at: T0,
      field: 'message_template_status_update',
      value: { event: 'PAUSED', message_template_id: 9001, reason: 'NONE', other_info: { title: 'RATE_LIMITING_PAUSE', description: 'x' } },
    });
    // Assess
    expect(paused).toMatchObject({ kind: 'template_status', event: 'PAUSED', title: 'RATE_LIMITING_PAUSE' });
  });
});
