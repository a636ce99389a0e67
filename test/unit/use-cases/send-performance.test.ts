import { describe, expect, it } from 'vitest';
import { applyNotifications } from '#lib/domain/inbound/meta-notifications.ts';
import type { MetaNotification } from '#lib/domain/inbound/notifications.ts';
import { getSendPerformance, readVariantFigures } from '#lib/domain/sends/performance/send-performance.ts';
import { completeIfDone } from '#lib/domain/sends/performance/completion.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { templatePerformance } from '#lib/domain/sends/performance/template-performance.ts';
import { messageReference } from '#lib/domain/shared/message-status.ts';
import { performanceMarkOf } from '#lib/domain/sends/figures.ts';
import type { PositionOutcome } from '#lib/domain/sends/ports.ts';
import { bspCaller, callerOf, memoryWorld } from '../../support/memory/world.ts';

/**
 * A send's performance (decisions §33) as the use cases count it on in-memory stores: the dispatcher's, the status
 * path's and the inbound path's figures by variant and day, and the rules of a reply (by `context.id`, or any other
 * message within 24 h of a delivery), each counted once however often Meta repeats a webhook.
 */
const WABA = '100200300';
const DID = '5215550001';
const DAY = '2026-11-20';
const T0 = Date.parse(`${DAY}T15:00:00Z`);
const HOUR = 3_600_000;
const people = ['5215551110001', '5215551110002', '5215551110003', '5215551110004'];
const utility = { category: 'utility', type: 'regular', billable: true };

/** A send `s1` of client 7 to `people`, accepted and dispatched at T0: each sent as `wamid.<i>` unless `outcomes` says. */
async function dispatched(outcomes: PositionOutcome[] = people.map((_, i) => ({ kind: 'sent', message_id: `wamid.${i}` }))) {
  const world = memoryWorld();
  const send = {
    send_id: 's1',
    client_id: 7,
    did: DID,
    template: { name: 'order_update', language: 'en_US' },
    status: 'queuing' as const,
    created_at: new Date(T0).toISOString(),
    total: people.length,
    jobs: 1,
    job_firsts: [0],
    currency: 'USD',
  };
  await world.sends.begin(send);
  await world.sends.settle(send, 'queued');
  const ref = { first: 0, size: people.length, job: 1 };
  await world.recipientLists.recordRecipients('s1', [{ ref, to: people, repeats: people.map(() => undefined) }], send.created_at, DID);
  const block = { first: 0, size: people.length, sendable: people.length };
  const lease = { holder: 'h', untilMs: T0 + 60_000 };
  await world.blocks.claimBlock('s1', block, lease, T0);
  const job = { did: DID, client_id: 7, waba_id: WABA, template: { ...send.template, id: '1', components: [] } };
  await world.blocks.settleBlock('s1', block, outcomes, lease, undefined, performanceMarkOf(job, T0));
  const apply = (...notifications: MetaNotification[]) =>
    applyNotifications(
      world,
      notifications.map((notification) => ({ notification })),
    );
  return { world, apply };
}

const status = (
  i: number,
  what: 'delivered' | 'read' | 'failed',
  at: number,
  error?: { code: string; title: string },
): MetaNotification => ({
  kind: 'message_status',
  message_id: `wamid.${i}`,
  status: what,
  reference: messageReference('s1', 0, i),
  at,
  waba_id: WABA,
  recipient: people[i],
  ...(what !== 'failed' && { pricing: utility }),
  ...(error && { error }),
});

const inbound = (i: number, at: number, extra: Partial<Extract<MetaNotification, { kind: 'inbound_message' }>> = {}): MetaNotification => ({
  kind: 'inbound_message',
  waba_id: WABA,
  number_digits: DID,
  from: people[i],
  message_id: `wamid.in.${i}.${at}`,
  at,
  ...extra,
});

const figuresOf = async (world: ReturnType<typeof memoryWorld>) => (await readVariantFigures(world, 's1'))!.variants[0].sums;

describe('a send’s figures from its dispatch and statuses (decisions §33)', () => {
  it('counts sent, delivered, read and failures by code on the event’s day, a status applied twice once', async () => {
    // Prepare: three sent, one refused at once
    const { world, apply } = await dispatched([
      { kind: 'sent', message_id: 'wamid.0' },
      { kind: 'sent', message_id: 'wamid.1' },
      { kind: 'sent', message_id: 'wamid.2' },
      { kind: 'failed', code: '131026', title: 'Undeliverable' },
    ]);
    // Act: 0 delivered and read, the next day; 1 delivered twice (Meta repeats); 2 failed after acceptance
    await apply(status(0, 'delivered', T0 + HOUR), status(1, 'delivered', T0 + HOUR));
    await apply(status(0, 'read', T0 + 24 * HOUR), status(1, 'delivered', T0 + HOUR));
    await apply(status(2, 'failed', T0 + 2 * HOUR, { code: '131047', title: 'Re-engagement' }));
    // Assess
    const { send, variants } = (await readVariantFigures(world, 's1'))!;
    expect(variants).toHaveLength(1);
    expect(variants[0].template).toEqual({ name: 'order_update', language: 'en_US' });
    expect(variants[0].sums).toMatchObject({ sent: 3, delivered: 2, read: 1, failed: 2, failed_by_code: { '131026': 1, '131047': 1 } });
    expect(variants[0].sums.cost_micros).toBe(send.charges?.utility?.micros);
    const days = world.sendTable.figures.get('s1')!;
    expect(days.get(`0|${DAY}|read`)).toBeUndefined();
    expect(days.get('0|2026-11-21|read')?.n).toBe(1);
    expect(days.get(`0|${DAY}|delivered`)?.n).toBe(2);
  });

  it('keeps the same figures on the client’s template day', async () => {
    // Prepare
    const { world, apply } = await dispatched();
    // Act
    await apply(status(0, 'delivered', T0 + HOUR), status(1, 'read', T0 + HOUR));
    const answer = await templatePerformance(world, callerOf(7), { from: DAY, to: DAY });
    // Assess
    expect(answer.data).toHaveLength(1);
    expect(answer.data[0]).toMatchObject({ day: DAY, template: 'order_update', language: 'en_US', sent: 4, delivered: 2, read: 1 });
    expect(answer.data[0].read_rate).toBe(0.5);
  });
});

describe('clicks (decisions §33): Meta’s template analytics beside the service’s counts', () => {
  it('gives a day its template’s URL clicks, and a day Meta counted clicks the service sent nothing on a row of its own', async () => {
    // Prepare
    const { world, apply } = await dispatched();
    await apply(status(0, 'delivered', T0 + HOUR));
    const metaDay = (day: string, count: number) => ({
      template_id: '9001',
      name: 'order_update',
      language: 'en_US',
      waba_id: WABA,
      day,
      sent: 0,
      delivered: 0,
      read: 0,
      clicked: [{ type: 'url_button', button: 'Shop', count }],
      read_at: 'now',
    });
    const analytics = { templateDays: async () => [metaDay(DAY, 3), metaDay('2026-11-21', 2)] };
    // Act
    const answer = await templatePerformance({ ...world, analytics }, callerOf(7), { from: DAY, to: '2026-11-21' });
    const send = await getSendPerformance({ ...world, analytics }, callerOf(7), 's1');
    // Assess
    expect(answer.data.map((r) => [r.day, r.sent, r.clicks])).toEqual([
      [DAY, 4, 3],
      ['2026-11-21', 0, 2],
    ]);
    expect(answer.templates[0]).toMatchObject({ clicks: 5, sent: 4 });
    expect(send.variants[0].template_clicks).toBe(3);
  });
});

describe('replies (decisions §33)', () => {
  it('counts a reply by context.id once, its quick-reply button once, however often Meta sends it', async () => {
    // Prepare
    const { world, apply } = await dispatched();
    await apply(status(0, 'delivered', T0 + HOUR), status(1, 'delivered', T0 + HOUR));
    const button = inbound(0, T0 + 2 * HOUR, { context_id: 'wamid.0', button: { text: 'Yes', payload: 'YES_1' } });
    // Act: the button twice (a repeated webhook), a text reply to message 1 by its context, then again
    const first = await apply(button);
    const again = await apply(button);
    await apply(inbound(1, T0 + 3 * HOUR, { context_id: 'wamid.1', text: 'thanks' }));
    await apply(inbound(1, T0 + 4 * HOUR, { context_id: 'wamid.1', text: 'and again' }));
    // Assess
    expect(first).toEqual(['applied']);
    expect(again).toEqual(['unchanged']);
    expect(await figuresOf(world)).toMatchObject({ replied: 2, replied_after: 0, buttons: { Yes: 1 } });
    expect(world.sendTable.replies.get('s1|0')).toEqual({ replied_at: T0 + 2 * HOUR, button: { text: 'Yes', payload: 'YES_1' } });
  });

  it('counts any other message within 24 h of a delivery as replied_after, apart, up to the 24 h edge', async () => {
    // Prepare: 0, 1 and 2 delivered at T0 + 1 h
    const { world, apply } = await dispatched();
    await apply(status(0, 'delivered', T0 + HOUR), status(1, 'delivered', T0 + HOUR), status(2, 'delivered', T0 + HOUR));
    // Act: 0 writes exactly 24 h after, 1 a second later than that, 2 twice within; 3 (never delivered) writes too
    await apply(inbound(0, T0 + 25 * HOUR, { text: 'hello' }));
    await apply(inbound(1, T0 + 25 * HOUR + 1000, { text: 'hello' }));
    await apply(inbound(2, T0 + 2 * HOUR, { text: 'one' }), inbound(2, T0 + 3 * HOUR, { text: 'two' }));
    const late = await apply(inbound(3, T0 + 2 * HOUR, { text: 'hi' }));
    // Assess
    expect(await figuresOf(world)).toMatchObject({ replied: 0, replied_after: 2 });
    expect(world.sendTable.replies.get('s1|1')).toBeUndefined();
    expect(late).toEqual(['unchanged']);
  });

  it('counts a message replied once it is quoted, never replied_after too, whichever webhook is applied first', async () => {
    // Prepare
    const { world, apply } = await dispatched();
    await apply(status(0, 'delivered', T0 + HOUR), status(1, 'delivered', T0 + HOUR), status(2, 'delivered', T0 + HOUR));
    // Act: 0's text applied before its quote, 1's after it (webhooks come in any order); 2 only writes
    await apply(inbound(0, T0 + 3 * HOUR, { text: 'first' }), inbound(0, T0 + 2 * HOUR, { context_id: 'wamid.0', text: 'reply' }));
    await apply(inbound(1, T0 + 2 * HOUR, { context_id: 'wamid.1', text: 'reply' }), inbound(1, T0 + 3 * HOUR, { text: 'more' }));
    await apply(inbound(2, T0 + 2 * HOUR, { text: 'hello' }));
    // Assess: 0 moved from replied_after to replied; its row keeps the quote alone
    expect(await figuresOf(world)).toMatchObject({ replied: 2, replied_after: 1 });
    expect(world.sendTable.replies.get('s1|0')).toEqual({ replied_at: T0 + 2 * HOUR });
    expect(world.sendTable.replies.get('s1|2')).toEqual({ replied_after_at: T0 + 2 * HOUR });
  });

  it('ignores a person the number never sent to, and a number no client has', async () => {
    // Prepare
    const { world, apply } = await dispatched();
    // Act
    const stranger = await apply({ ...inbound(0, T0), from: '5215559999999', context_id: 'wamid.0' } as MetaNotification);
    const elsewhere = await apply({ ...inbound(0, T0), number_digits: '5299999999' } as MetaNotification);
    // Assess
    expect(stranger).toEqual(['unchanged']);
    expect(elsewhere).toEqual(['ignored']);
    expect(await figuresOf(world)).toMatchObject({ replied: 0, replied_after: 0 });
  });
});

describe('GET /v1/sends/{id}/performance’s use case', () => {
  it('gives rates with 95 % intervals, the recipient rows their replies, and another client’s admin no send', async () => {
    // Prepare
    const { world, apply } = await dispatched();
    await apply(...[0, 1, 2, 3].map((i) => status(i, 'read', T0 + HOUR)));
    await apply(inbound(0, T0 + 2 * HOUR, { context_id: 'wamid.0', button: { text: 'Stop', payload: 'STOP' } }));
    // Act
    const answer = await getSendPerformance(world, callerOf(7), 's1');
    const asBsp = await getSendPerformance(world, bspCaller(), 's1');
    const rows = await world.recipientLists.recipients('s1', [{ first: 0, size: 4, job: 1 }]);
    // Assess
    expect(answer.totals).toMatchObject({ sent: 4, delivered: 4, read: 4, replied: 1, buttons: { Stop: 1 } });
    expect(answer.totals.reply_rate).toEqual({ rate: 0.25, low: expect.any(Number), high: expect.any(Number) });
    expect(answer.totals.reply_rate!.low).toBeLessThan(0.25);
    expect(answer.variants).toHaveLength(1);
    expect(answer.comparison).toBeUndefined();
    expect(answer.days.map((d) => d.day)).toEqual([DAY]);
    expect(asBsp.totals.cost_per_read).toBeGreaterThan(0);
    expect(rows[0].reply).toEqual({ replied_at: T0 + 2 * HOUR, button: { text: 'Stop', payload: 'STOP' } });
    await expect(getSendPerformance(world, callerOf(8), 's1')).rejects.toThrow(/does not exist/);
  });
});

describe('send.completed (decisions §33)', () => {
  it('is written once its send has nothing pending, with its totals and performance, and never twice', async () => {
    // Prepare
    const { world, apply } = await dispatched();
    await apply(status(0, 'read', T0 + HOUR));
    const deps = { performances: world.performances, completions: world.completions, log: silentLog };
    // Act
    const first = await completeIfDone(deps, 's1', T0 + 2 * HOUR);
    const again = await completeIfDone(deps, 's1', T0 + 3 * HOUR);
    // Assess
    const events = world.sendTable.events.filter((e) => e.type === 'send.completed');
    expect([first, again]).toEqual([true, false]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ client_id: 7, occurred_at: new Date(T0 + 2 * HOUR).toISOString() });
    expect(events[0].data).toMatchObject({
      send_id: 's1',
      status: 'completed',
      total: 4,
      sent: 4,
      pending: 0,
      performance: { totals: { sent: 4, delivered: 1, read: 1 }, variants: [{ variant: 0, template: { name: 'order_update' } }] },
    });
    expect(JSON.stringify(events[0].data)).not.toContain('cost');
  });

  it('is not written while recipients are pending', async () => {
    // Prepare: a send of 4 whose block of 4 is not settled
    const world = memoryWorld();
    const send = {
      send_id: 's2',
      client_id: 7,
      did: DID,
      template: { name: 'order_update', language: 'en_US' },
      status: 'queuing' as const,
      created_at: 'now',
      total: 4,
      jobs: 1,
    };
    await world.sends.begin(send);
    await world.sends.settle(send, 'queued');
    // Act
    const completed = await completeIfDone({ performances: world.performances, completions: world.completions, log: silentLog }, 's2', T0);
    // Assess
    expect(completed).toBe(false);
    expect(world.sendTable.events).toEqual([]);
  });
});
