import { describe, expect, it } from 'vitest';
import {
  capKeysOf,
  countedOf,
  FREQUENCY_CAP_LIMITS,
  getFrequencyCap,
  isCounted,
  putFrequencyCap,
  timesAfterGiveBack,
  timesAfterTake,
} from '#lib/domain/people/frequency-caps.ts';
import { dryRunSend } from '#lib/domain/sends/accept/dry-run.ts';
import { sendTemplate } from '#lib/domain/sends/accept/send.ts';
import type { DispatchJob } from '#lib/domain/sends/dispatch-job.ts';
import { getSend } from '#lib/domain/sends/send-status.ts';
import { Forbidden, NotFound } from '#lib/domain/shared/errors.ts';
import { dispatcherOf } from '../support/memory/dispatcher.ts';
import { MemoryMarketingCounts } from '../support/memory/people/frequency-caps.ts';
import { bspCaller, callerOf, memoryWorld } from '../support/memory/world.ts';

/**
 * A cap on marketing per person (issue 56 item 4, decisions §33) on the in-memory adapters, with the clock
 * injected: the window's edges, the count bounded by `max`, takes at once that never pass the cap, and sends
 * accepted and dispatched as the service does. In the demo fixture client 7 sends from 5215550001 on WABA
 * 100200300 (people map scope `555`); summer_promo (9003) is its MARKETING template, order_update its UTILITY one.
 */
const DAY_S = 86_400;
const T = Date.parse('2026-11-20T10:00:00.000Z');
const T_S = T / 1000;
const CAP = { max: 1, days: 7 };
const BSUID = 'MX.13491208655302741918';
const agent = callerOf(7);
const admin = callerOf(7, { role: 'admin' });

describe('the window and the count (rules, on an injected clock)', () => {
  it('counts a message for `days` × 24 h: a second before its end it counts, at its end it does not', () => {
    // Act / Assess
    expect(isCounted(T_S, CAP, T_S + 7 * DAY_S - 1)).toBe(true);
    expect(isCounted(T_S, CAP, T_S + 7 * DAY_S)).toBe(false);
    expect(countedOf([T_S - 8 * DAY_S, T_S - DAY_S, T_S], { max: 3, days: 7 }, T_S)).toBe(2);
  });

  it('keeps at most `max` times a person, whatever its history, and gives one back once', () => {
    // Prepare: 40 messages a day apart, under a cap of 3 per 30 days
    const cap = { max: 3, days: 30 };
    let times: number[] = [];
    // Act
    for (let day = 0; day < 40; day++) times = timesAfterTake(times, cap, T_S + day * DAY_S);
    const back = timesAfterGiveBack(times, times[1]);
    // Assess
    expect(times).toEqual([T_S + 37 * DAY_S, T_S + 38 * DAY_S, T_S + 39 * DAY_S]);
    expect(back).toEqual([T_S + 37 * DAY_S, T_S + 39 * DAY_S]);
    expect(timesAfterGiveBack(back, 1)).toEqual(back);
  });

  it('keeps a person by its number first, so both halves count under one item', () => {
    expect(capKeysOf([`u:${BSUID}`, 'p:5215550000001'])).toEqual(['p:5215550000001', `u:${BSUID}`]);
  });
});

describe('the people’s counts (in memory, as the table keeps them)', () => {
  it('takes up to `max` in the window, none more, and again once the first leaves it', async () => {
    // Prepare
    const counts = new MemoryMarketingCounts();
    const cap = { max: 2, days: 7 };
    const keys = ['p:5215550000001'];
    // Act
    const first = await counts.take(7, keys, cap, T);
    const second = await counts.take(7, keys, cap, T + 1_000);
    const third = await counts.take(7, keys, cap, T + 7 * DAY_S * 1000 - 1_000);
    const fourth = await counts.take(7, keys, cap, T + 7 * DAY_S * 1000);
    // Assess
    expect([first, second, third, fourth]).toEqual([T_S, T_S + 1, null, T_S + 7 * DAY_S]);
    expect(counts.counts.get('7|p:5215550000001')?.at).toHaveLength(2);
  });

  it('never passes the cap when takes of one person come at once: each writes over the count it read, or reads again', async () => {
    // Prepare
    const counts = new MemoryMarketingCounts();
    const cap = { max: 3, days: 7 };
    // Act: ten takes at once
    const taken = await Promise.all(Array.from({ length: 10 }, () => counts.take(7, ['p:5215550000001'], cap, T)));
    // Assess: three took a place; the others met a write of another and read again
    expect(taken.filter((t) => t !== null)).toHaveLength(3);
    expect(counts.conflicts).toBeGreaterThan(0);
  });

  it('counts a person’s number and BSUID together, and counts one client’s messages apart from another’s', async () => {
    // Prepare: a message counted under the BSUID before the number was known
    const counts = new MemoryMarketingCounts();
    await counts.take(7, [`u:${BSUID}`], CAP, T);
    // Act
    const byBoth = await counts.take(7, ['p:5215550000001', `u:${BSUID}`], CAP, T + 1_000);
    const otherClient = await counts.take(8, ['p:5215550000001', `u:${BSUID}`], CAP, T + 1_000);
    // Assess
    expect(byBoth).toBeNull();
    expect(otherClient).toBe(T_S + 1);
  });
});

/** summer_promo approved, as Meta would have it, in the emulator and client 7's records. */
function approvedPromo() {
  const world = memoryWorld();
  world.emulator.model.findTemplate('9003')!.template.status = 'APPROVED';
  for (const record of world.templateTable.records.values())
    if (record.meta_template.id === '9003') record.meta_template = { ...record.meta_template, status: 'APPROVED' };
  return world;
}

type World = ReturnType<typeof memoryWorld>;
let sends = 0;

/** A send of client 7 at `nowIso`, then its jobs dispatched on a clock from then: the send as read after. */
async function sendAndDispatch(world: World, template: 'summer_promo' | 'order_update', recipients: object[], nowIso: string) {
  const sendId = `s-${++sends}`;
  const queued = world.queue.sent.length;
  await sendTemplate({ ...world, now: () => nowIso }, agent, { pathDid: '5215550001', sendId, body: bodyOf(template, recipients) });
  const { dispatch, launched } = dispatcherOf(world, nowIso);
  for (const job of world.queue.sent.slice(queued)) await dispatch(job);
  return { sendId, launched, status: await getSend(world, agent, sendId) };
}

const params = { summer_promo: { header: ['Ana'], body: ['20%'] }, order_update: { body: ['A-1'] } };
const bodyOf = (template: 'summer_promo' | 'order_update', recipients: object[]) => ({
  did: '5215550001',
  type: 'template' as const,
  channel: 'MSGCHAN' as const,
  template: { name: template, language: 'en_US' },
  recipients: recipients.map((r) => ({ ...r, params: params[template] })) as never,
});

describe('MARKETING sends under a cap of 1 per 7 days (in memory)', () => {
  const people = ['5215550000001', '5215550000002', '5215550000003'];

  it('a second MARKETING send skips the people the first reached, counted capped_by_rule; the dry run names them', async () => {
    // Prepare: the cap, and a first MARKETING send to two of the three
    const world = approvedPromo();
    await putFrequencyCap({ ...world, caps: world.frequencyCaps }, admin, 7, { marketing: CAP });
    await sendAndDispatch(
      world,
      'summer_promo',
      people.slice(0, 2).map((to) => ({ to })),
      '2026-11-20T10:00:00.000Z',
    );
    const recipients = people.map((to) => ({ to }));
    // Act: a day later, a dry run and the send
    const dry = await dryRunSend({ ...world, now: () => '2026-11-21T10:00:00.000Z' }, agent, {
      pathDid: '5215550001',
      body: bodyOf('summer_promo', []),
      recipients: recipients.map((r, index) => ({ index, recipient: { ...r, params: params.summer_promo } })),
      refused: [],
      total: 3,
    });
    const second = await sendAndDispatch(world, 'summer_promo', recipients, '2026-11-21T10:00:00.000Z');
    // Assess
    expect(dry.capped_by_rule).toEqual([
      { index: 0, to: people[0] },
      { index: 1, to: people[1] },
    ]);
    expect(second.status).toMatchObject({ total: 3, sent: 1, capped_by_rule: 2, failed: 0, pending: 0 });
    expect(second.launched).toHaveLength(1);
  });

  it('does not cap a UTILITY send, and sends a MARKETING one again once the 7 days are over', async () => {
    // Prepare
    const world = approvedPromo();
    await putFrequencyCap({ ...world, caps: world.frequencyCaps }, bspCaller(), 7, { marketing: CAP });
    await sendAndDispatch(world, 'summer_promo', [{ to: people[0] }], '2026-11-20T10:00:00.000Z');
    // Act
    const utility = await sendAndDispatch(world, 'order_update', [{ to: people[0] }], '2026-11-20T11:00:00.000Z');
    const justBefore = await sendAndDispatch(world, 'summer_promo', [{ to: people[0] }], '2026-11-27T09:59:58.000Z');
    const after = await sendAndDispatch(world, 'summer_promo', [{ to: people[0] }], '2026-11-27T10:00:01.000Z');
    // Assess
    expect(utility.status).toMatchObject({ sent: 1, capped_by_rule: 0 });
    expect(justBefore.status).toMatchObject({ sent: 0, capped_by_rule: 1 });
    expect(after.status).toMatchObject({ sent: 1, capped_by_rule: 0 });
    const [job] = world.queue.sent.slice(1, 2) as unknown as DispatchJob[];
    expect(job.frequency_cap).toBeUndefined();
  });

  it('caps a person known by number and by BSUID once, however a send names them', async () => {
    // Prepare: the people map pairs the number with the BSUID for client 7; a send by the number
    const world = approvedPromo();
    await world.peopleMap.learn('555', [{ phone: people[0], user_id: BSUID, at: '2026-11-19T00:00:00.000Z', taught_by: 7 }]);
    await putFrequencyCap({ ...world, caps: world.frequencyCaps }, admin, 7, { marketing: CAP });
    await sendAndDispatch(world, 'summer_promo', [{ to: people[0] }], '2026-11-20T10:00:00.000Z');
    // Act: the same person by the BSUID alone
    const byBsuid = await sendAndDispatch(world, 'summer_promo', [{ user_id: BSUID }], '2026-11-21T10:00:00.000Z');
    // Assess
    expect(byBsuid.status).toMatchObject({ sent: 0, capped_by_rule: 1 });
    expect([...world.marketingCounts.counts.keys()]).toEqual([`7|p:${people[0]}`]);
  });

  it('gives back the place of a message Meta refused: the person’s next MARKETING message goes', async () => {
    // Prepare: the cap; a first send whose message Meta refuses (131026, not worth another try)
    const world = approvedPromo();
    await putFrequencyCap({ ...world, caps: world.frequencyCaps }, admin, 7, { marketing: CAP });
    const now = '2026-11-20T10:00:00.000Z';
    await sendTemplate({ ...world, now: () => now }, agent, {
      pathDid: '5215550001',
      sendId: 'refused',
      body: bodyOf('summer_promo', [{ to: people[0] }]),
    });
    const [job] = world.queue.sent as unknown as DispatchJob[];
    await dispatcherOf(world, now, () => '131026').dispatch(job);
    // Act
    const next = await sendAndDispatch(world, 'summer_promo', [{ to: people[0] }], '2026-11-20T11:00:00.000Z');
    // Assess
    expect(await getSend(world, agent, 'refused')).toMatchObject({ failed: 1, capped_by_rule: 0 });
    expect(next.status).toMatchObject({ sent: 1, capped_by_rule: 0 });
    expect(world.marketingCounts.counts.get(`7|p:${people[0]}`)?.at).toHaveLength(1);
  });

  it('never passes the cap with sends dispatched at once', async () => {
    // Prepare: a cap of 2; two sends to the same 30 people, accepted before either is dispatched
    const world = approvedPromo();
    await putFrequencyCap({ ...world, caps: world.frequencyCaps }, admin, 7, { marketing: { max: 2, days: 7 } });
    const many = Array.from({ length: 30 }, (_, i) => ({ to: `52155500010${String(i).padStart(2, '0')}` }));
    const now = '2026-11-20T10:00:00.000Z';
    for (const sendId of ['a', 'b', 'c'])
      await sendTemplate({ ...world, now: () => now }, agent, { pathDid: '5215550001', sendId, body: bodyOf('summer_promo', many) });
    // Act: the three sends' jobs at once, on dispatchers of their own
    await Promise.all((world.queue.sent as unknown as DispatchJob[]).map((job) => dispatcherOf(world, now).dispatch(job)));
    // Assess: each person got 2 messages in all, never 3
    const statuses = await Promise.all(['a', 'b', 'c'].map((id) => getSend(world, agent, id)));
    expect(statuses.reduce((n, s) => n + s.sent, 0)).toBe(60);
    expect(statuses.reduce((n, s) => n + s.capped_by_rule, 0)).toBe(30);
    for (const [key, count] of world.marketingCounts.counts) expect(count.at, key).toHaveLength(2);
  });
});

describe('the frequency cap’s setting (route use cases)', () => {
  it('lets BSP_CN set any client’s cap and a client’s administrator its own; reads, then removes it', async () => {
    // Prepare
    const world = memoryWorld();
    const deps = { ...world, caps: world.frequencyCaps, now: () => '2026-11-20T10:00:00.000Z' };
    // Act
    const set = await putFrequencyCap(deps, admin, 7, { marketing: { max: 2, days: 30 } });
    const read = await getFrequencyCap(deps, agent, 7);
    const removed = await putFrequencyCap(deps, bspCaller(), 7, { marketing: null });
    const after = await getFrequencyCap(deps, bspCaller(), 7);
    // Assess
    expect(set).toEqual({ client_id: 7, marketing: { max: 2, days: 30 }, updated_at: '2026-11-20T10:00:00.000Z' });
    expect(read).toEqual(set);
    expect(removed).toEqual({ client_id: 7, marketing: null });
    expect(after).toEqual({ client_id: 7, marketing: null });
  });

  it('refuses an agent, another client’s administrator and a reader of another client (403), and an unknown client (404)', async () => {
    // Prepare
    const world = memoryWorld();
    const deps = { ...world, caps: world.frequencyCaps };
    const cap = { marketing: { max: 1, days: 7 } };
    // Act / Assess
    await expect(putFrequencyCap(deps, agent, 7, cap)).rejects.toBeInstanceOf(Forbidden);
    await expect(putFrequencyCap(deps, admin, 8, cap)).rejects.toBeInstanceOf(Forbidden);
    await expect(getFrequencyCap(deps, agent, 8)).rejects.toBeInstanceOf(Forbidden);
    await expect(putFrequencyCap(deps, bspCaller(), 999, cap)).rejects.toBeInstanceOf(NotFound);
    await expect(getFrequencyCap(deps, bspCaller(), 999)).rejects.toBeInstanceOf(NotFound);
    expect(world.frequencyCaps.caps.size).toBe(0);
    expect(FREQUENCY_CAP_LIMITS).toEqual({ max: 50, days: 90 });
  });
});
