import { describe, expect, it } from 'vitest';
import { cancelSend } from '#lib/domain/sends/operations/cancel-send.ts';
import { dispatchJob } from '#lib/domain/sends/dispatch/dispatcher.ts';
import { DEFAULT_DISPATCH } from '#lib/wiring/dispatch-settings.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { InvalidRequest, UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { releaseScheduledSend } from '#lib/domain/sends/operations/release-send.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import { getSend } from '#lib/domain/sends/send-status.ts';
import { MemoryPacer } from '../../support/memory/sends/pacer.ts';
import { MemoryThroughputStore } from '../../support/memory/sends/throughput-store.ts';
import { callerOf, memoryWorld } from '../../support/memory/world.ts';

/** Scheduled sends (decisions §22) on in-memory adapters: held, scheduled, released, cancelled, expiring from their time. */
const acme = callerOf(7);
const NOW = Date.parse('2026-11-25T10:00:00Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();

function scheduledWorld() {
  const world = memoryWorld();
  const template = world.emulator.model.findTemplate('9002')!.template;
  const variables = new Set(JSON.stringify(template.components).match(/\{\{\d+\}\}/g)).size;
  const body = (sendAt?: string, extra: Record<string, unknown> = {}) => ({
    did: '5215550001',
    type: 'template' as const,
    channel: 'MSGCHAN' as const,
    template: { name: 'order_update', language: 'es' },
    recipients: Array.from({ length: 3 }, (_, i) => ({
      to: `521555000${i}`,
      params: { body: Array.from({ length: variables }, () => 'v') },
    })),
    ...(sendAt && { send_at: sendAt }),
    ...extra,
  });
  const deps = { ...world, now: () => new Date(NOW).toISOString() };
  const send = (sendId: string, sendAt?: string, extra?: Record<string, unknown>) =>
    sendTemplate(deps, acme, { pathDid: '5215550001', sendId, body: body(sendAt, extra) });
  const release = (sendId: string) => releaseScheduledSend({ ...world, log: silentLog }, sendId);
  return { world, send, release };
}

describe('a scheduled send (decisions §22)', () => {
  it('holds its jobs and schedules them for its time; shows scheduled until released, then queued', async () => {
    // Prepare
    const { world, send, release } = scheduledWorld();
    // Act
    const answer = await send('s-1', '2026-11-25T10:01:30+00:00');
    const before = await getSend(world, acme, 's-1');
    const released = await release('s-1');
    const again = await release('s-1');
    const after = await getSend(world, acme, 's-1');
    // Assess
    expect(answer).toMatchObject({ success: true, send_id: 's-1', status: 'scheduled' });
    expect(world.scheduler.schedules.get('s-1')).toBe(at(90_000));
    expect(before).toMatchObject({ status: 'scheduled', pending: 3, send_at: at(90_000) });
    expect([released, again]).toEqual(['released', 'skipped']);
    expect(world.queue.sent).toHaveLength(1);
    expect(world.queue.sent[0]).toMatchObject({ send_id: 's-1', first_index: 0 });
    // Queued under its tenant's priority lane: a UTILITY send (decisions §23)
    expect(world.queue.groups).toEqual(['client-7-priority']);
    expect(after.status).toBe('queued');
  });

  it('refuses a time more than 30 days ahead or more than a minute past; one within the minute, or seconds ahead, goes at once', async () => {
    // Prepare
    const { world, send } = scheduledWorld();
    // Act
    const far = await send('s-far', at(30 * 86_400_000 + 1_000)).catch((e: unknown) => e);
    const past = await send('s-past', at(-61_000)).catch((e: unknown) => e);
    const recent = await send('s-recent', at(-30_000));
    const soon = await send('s-soon', at(4_000));
    // Assess
    expect(far).toBeInstanceOf(InvalidRequest);
    expect((far as InvalidRequest).details).toEqual([{ path: 'send_at', message: 'must be at most 30 days ahead' }]);
    expect((past as InvalidRequest).details).toEqual([{ path: 'send_at', message: 'must not be more than a minute in the past' }]);
    expect(recent).not.toHaveProperty('status');
    expect(soon).not.toHaveProperty('status');
    expect(world.queue.sent.map((job) => job.send_id)).toEqual(['s-recent', 's-soon']);
    expect(world.scheduler.schedules.size).toBe(0);
  });

  it('cancelled before its time sends nothing: its release settles every recipient cancelled', async () => {
    // Prepare
    const { world, send, release } = scheduledWorld();
    await send('s-1', at(90_000));
    await cancelSend(world, acme, 's-1');
    // Act
    const released = await release('s-1');
    const status = await getSend(world, acme, 's-1');
    // Assess
    expect(released).toBe('cancelled');
    expect(world.queue.sent).toEqual([]);
    expect(status).toMatchObject({ status: 'cancelled', cancelled: 3, pending: 0 });
  });

  it('answers UpstreamUnavailable when the scheduler refuses, and the send is never released', async () => {
    // Prepare
    const { world, send, release } = scheduledWorld();
    world.scheduler.failing = true;
    // Act
    const refused = await send('s-1', at(90_000)).catch((e: unknown) => e);
    // Assess
    expect(refused).toBeInstanceOf(UpstreamUnavailable);
    expect(await world.sends.get('s-1')).toMatchObject({ status: 'abandoned' });
    expect(await release('s-1')).toBe('skipped');
  });

  it('counts message_send_ttl_seconds from its time, not from its acceptance', async () => {
    // Prepare: accepted at NOW for NOW + 1 hour with a TTL of 10 minutes; released and dispatched at its time
    const { world, send, release } = scheduledWorld();
    await send('s-1', at(3_600_000), { message_send_ttl_seconds: 600 });
    await release('s-1');
    let now = NOW + 3_600_000 + 5_000;
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        now += ms;
      },
    };
    // Act
    await dispatchJob(
      {
        sends: world.sends,
        blocks: world.blocks,
        pacer: new MemoryPacer(),
        levels: new MemoryThroughputStore(),
        upstream: {
          sendMessage: async () => ({ kind: 'accepted', message_id: `wamid.${now}` }),
          catalogOf: async () => undefined,
          throughputOf: async () => 'STANDARD',
        },
        log: silentLog,
        clock,
        settings: DEFAULT_DISPATCH,
        holder: 'h',
        remainingMs: () => 300_000,
      },
      world.queue.sent[0] as unknown as DispatchJob,
    );
    // Assess: sent, not expired (10 minutes after acceptance had passed long before)
    expect(await getSend(world, acme, 's-1')).toMatchObject({ sent: 3, expired: 0 });
  });
});
