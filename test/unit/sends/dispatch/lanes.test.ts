import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dispatchJob } from '#lib/domain/sends/dispatch/dispatcher.ts';
import { DEFAULT_DISPATCH } from '#lib/wiring/dispatch-settings.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { bookingOf, horizonAtPace, laneOf, queueGroupOf, rankOf } from '#lib/domain/sends/dispatch/lanes.ts';
import { NEAR_MS, URGENT_HORIZON_MS } from '#lib/domain/sends/dispatch/tuning.ts';
import { paceOf } from '#lib/domain/sends/dispatch/throughput.ts';
import { peakSecond } from '../../../support/accept-times.ts';
import { jobOf, recipient, templateOf } from '../../../support/dispatch-jobs.ts';
import { EventClock } from '../../../support/event-clock.ts';
import { MemoryPacer } from '../../../support/memory/sends/pacer.ts';
import { memorySends } from '../../../support/memory/sends/sends.ts';
import { MemoryThroughputStore } from '../../../support/memory/sends/throughput-store.ts';
import { dispatchOnOneNumber, type NumberPlan } from '../../../support/number-dispatch.ts';

/**
 * Priority on a number and time-sliced dispatch (decisions §23, issue 33), on a discrete-event clock: a UTILITY
 * or small send takes the number's next slots ahead of a running MARKETING campaign, the campaign still completes
 * exactly at the number's pace, and an invocation sends a slice and hands the rest of its job back.
 */
const RATE = 80;
const INTERVAL_MS = 1000 / paceOf('STANDARD');
const calm: Omit<NumberPlan, 'jobs' | 'marketing'> = {
  stalls: [],
  lateInvocation: null,
  answerMs: { min: 50, spread: 100 },
  storeMs: 5,
  seed: 7,
};

const launchesOf = (launches: { job: number; at: number }[], job: number) => launches.filter((l) => l.job === job).map((l) => l.at);

describe('lanes (decisions §23)', () => {
  it('puts AUTHENTICATION and UTILITY sends, and sends of at most 100, in the priority lane; larger MARKETING ones in bulk', () => {
    // Prepare
    const of = (category: string, recipients: number) => jobOf([], { template: templateOf(category), total_contacts: recipients });
    // Act, Assess
    expect(laneOf(of('AUTHENTICATION', 50_000))).toBe('priority');
    expect(laneOf(of('UTILITY', 50_000))).toBe('priority');
    expect(laneOf(of('MARKETING', 100))).toBe('priority');
    expect(laneOf(of('MARKETING', 101))).toBe('bulk');
    // On the queue, each lane of a tenant is a group of its own: its urgent sends do not wait behind its campaign
    expect([queueGroupOf(7, 'priority'), queueGroupOf(7, 'bulk')]).toEqual(['client-7-priority', 'client-7']);
  });

  it('launches a 3-recipient UTILITY send within 2 s of its arrival on a number running a MARKETING campaign of 2,000, which completes exactly at the pace', async () => {
    // Prepare
    const plan: NumberPlan = { ...calm, jobs: [1000, 1000, 3], marketing: [true, true, false], arrivals: [0, 0, 8_000] };
    // Act
    const { start, launches } = await dispatchOnOneNumber(plan);
    // Assess
    const urgent = launchesOf(launches, 2);
    expect(urgent).toHaveLength(3);
    expect(Math.max(...urgent) - (start + 8_000)).toBeLessThanOrEqual(2_000);
    for (const job of [0, 1]) expect(new Set(launches.filter((l) => l.job === job).map((l) => l.to)).size).toBe(1000);
    expect(launches).toHaveLength(2003);
    expect(peakSecond(launches.map((l) => l.at))).toBeLessThanOrEqual(RATE * 1.1);
    // The campaign went on after the urgent send: it gave the number up for a moment, not for good.
    expect(Math.max(...launchesOf(launches, 0), ...launchesOf(launches, 1))).toBeGreaterThan(Math.max(...urgent));
  });

  it('starts a priority send within 2 s plus its own length, whatever campaigns run beside it (property)', async () => {
    const plans = fc.record({
      campaigns: fc.array(fc.integer({ min: 101, max: 1200 }), { minLength: 1, maxLength: 3 }),
      urgent: fc.integer({ min: 1, max: 100 }),
      arrival: fc.integer({ min: 0, max: 10_000 }),
      seed: fc.integer(),
    });
    await fc.assert(
      fc.asyncProperty(plans, async ({ campaigns, urgent, arrival, seed }) => {
        // Prepare
        const plan: NumberPlan = {
          ...calm,
          seed,
          jobs: [...campaigns, urgent],
          marketing: [...campaigns.map(() => true), false],
          arrivals: [...campaigns.map(() => 0), arrival],
        };
        // Act
        const { start, launches } = await dispatchOnOneNumber(plan);
        // Assess
        const mine = launchesOf(launches, campaigns.length);
        expect(mine).toHaveLength(urgent);
        expect(Math.min(...mine) - (start + arrival)).toBeLessThanOrEqual(2_000);
        expect(Math.max(...mine) - (start + arrival)).toBeLessThanOrEqual(2_000 + urgent * INTERVAL_MS * 1.5);
        expect(launches).toHaveLength(campaigns.reduce((sum, n) => sum + n, urgent));
        expect(peakSecond(launches.map((l) => l.at))).toBeLessThanOrEqual(RATE * 1.1);
      }),
      { numRuns: Number(process.env.PACE_RUNS ?? 25) },
    );
  });
});

describe('time-sliced dispatch (decisions §23)', () => {
  it('sends a slice of a few seconds per invocation and hands the rest of the job back at once', async () => {
    // Prepare: a campaign job of 1,000 takes about 14 s at the number's pace
    const plan: NumberPlan = { ...calm, jobs: [1000], marketing: [true] };
    // Act
    const { launches, invocations } = await dispatchOnOneNumber(plan);
    // Assess
    expect(launches).toHaveLength(1000);
    expect(invocations.length).toBeGreaterThanOrEqual(3);
    for (const invocation of invocations.slice(0, -1))
      expect(invocation.result).toEqual({ outcome: 'retry_later', reason: 'slice sent', afterSeconds: 0 });
    expect(invocations.at(-1)?.result).toEqual({ outcome: 'done' });
    // A slice ends within a block's time (90 messages) and its answers after the slice's length.
    for (const { began, ended } of invocations)
      expect(ended - began).toBeLessThanOrEqual(DEFAULT_DISPATCH.sliceMs + 90 * INTERVAL_MS + 500);
  });

  it('brings a long campaign’s jobs on one number back in turn: 20 jobs of 1,000 queued at once complete exactly, none received more than 30 times', async () => {
    // Prepare: one send of 20,000 in 20 jobs, all on the queue at once (4.6 minutes of the number's time)
    const plan: NumberPlan = { ...calm, oneSend: true, jobs: Array(20).fill(1000), marketing: Array(20).fill(true) };
    // Act
    const { launches, invocations, store } = await dispatchOnOneNumber(plan);
    // Assess
    expect(new Set(launches.map((l) => l.to)).size).toBe(20_000);
    expect(launches).toHaveLength(20_000);
    expect((await store.get('send-0'))?.counts?.sent).toBe(20_000);
    expect(peakSecond(launches.map((l) => l.at))).toBeLessThanOrEqual(RATE * 1.1);
    const receives = new Map<number, number>();
    for (const { job } of invocations) receives.set(job, (receives.get(job) ?? 0) + 1);
    expect(Math.max(...receives.values())).toBeLessThanOrEqual(30);
  });

  it('gives a campaign’s block back unsent when priority sends have its number booked beyond a second, and comes back when it is free', async () => {
    // Prepare: the number booked 3 s ahead by priority sends
    const clock = new EventClock();
    const pacer = new MemoryPacer();
    const { sends, blocks } = memorySends();
    const job = jobOf(
      Array.from({ length: 200 }, (_, i) => recipient(`5215551${String(i).padStart(4, '0')}`)),
      { template: templateOf('MARKETING') },
    );
    await sends.begin({
      send_id: job.send_id,
      client_id: 7,
      did: job.did,
      template: { name: 'x', language: 'en' },
      status: 'queuing',
      created_at: new Date(clock.now()).toISOString(),
      total: 200,
      jobs: 1,
    });
    await sends.settle((await sends.get(job.send_id))!, 'queued');
    await pacer.reserve(job.phone_number_id!, Math.round(3_000 / INTERVAL_MS), INTERVAL_MS, clock.now());
    const sent: string[] = [];
    // Act
    const result = await clock.run(
      dispatchJob(
        {
          sends,
          blocks,
          pacer,
          levels: new MemoryThroughputStore(),
          upstream: {
            sendMessage: async (_phone: string, message: Record<string, unknown>) => {
              sent.push(String(message.to));
              return { kind: 'accepted', message_id: `wamid.${sent.length}` };
            },
            catalogOf: async () => 'catalog-1',
            throughputOf: async () => 'STANDARD',
          } as never,
          log: silentLog,
          clock,
          settings: DEFAULT_DISPATCH,
          holder: 'invocation-1',
          remainingMs: () => 50_000,
        },
        job,
      ),
    );
    // Assess: nothing sent, the block free for the next invocation, the job back in about 2 s
    expect(result).toEqual({ outcome: 'retry_later', reason: 'the number is busy with other jobs', afterSeconds: 2 });
    expect(sent).toEqual([]);
    expect(pacer.refusals).toBe(1);
    const again = await blocks.claimBlock(
      job.send_id,
      { first: 0, size: 90, sendable: 90 },
      { holder: 'invocation-2', untilMs: clock.now() + 60_000 },
      clock.now(),
    );
    expect(again).toEqual({ claimed: new Map() });
  });
});

/**
 * A number shared by its sends (issue 44), on the discrete-event clock: AUTHENTICATION before UTILITY before
 * MARKETING; within a category the number's slots go round the sends that are ready, so a small send is never
 * behind a big one; the number within 1.1 × its rate, every send exact.
 */
describe('a number shared by its sends (issue 44)', () => {
  const lastOf = (launches: { job: number; at: number }[], job: number) => Math.max(...launchesOf(launches, job));
  const firstOf = (launches: { job: number; at: number }[], job: number) => Math.min(...launchesOf(launches, job));

  it('books a send of a few whole, and shares the number a chunk at a time beyond, by its category’s rank', () => {
    // Prepare
    const of = (category: string, recipients: number) => jobOf([], { template: templateOf(category), total_contacts: recipients });
    // Act, Assess
    expect(bookingOf(of('MARKETING', 100))).toEqual({ shared: false });
    expect(bookingOf(of('AUTHENTICATION', 3))).toEqual({ shared: false });
    expect(bookingOf(of('AUTHENTICATION', 101))).toMatchObject({ shared: true, rank: 0, chunkMs: 1_250 });
    expect(bookingOf(of('UTILITY', 10_000))).toMatchObject({ shared: true, rank: 1, chunkMs: 1_250 });
    expect(bookingOf(of('MARKETING', 101))).toMatchObject({ shared: true, rank: 2, chunkMs: 500, holdMs: 0 });
    expect([rankOf('AUTHENTICATION'), rankOf('UTILITY'), rankOf('MARKETING'), rankOf(undefined)]).toEqual([0, 1, 2, 2]);
  });

  it('launches a 3-recipient UTILITY send within 1.5 s of its arrival beside UTILITY sends of 2,000 on its number, which complete exactly at the pace', async () => {
    // Prepare: two big UTILITY sends going, then the send of 3
    const plan: NumberPlan = { ...calm, jobs: [1000, 1000, 3], marketing: [false, false, false], arrivals: [0, 0, 8_000] };
    // Act
    const { start, launches } = await dispatchOnOneNumber(plan);
    // Assess
    expect(launchesOf(launches, 2)).toHaveLength(3);
    expect(lastOf(launches, 2) - (start + 8_000)).toBeLessThanOrEqual(1_500);
    for (const job of [0, 1]) expect(new Set(launches.filter((l) => l.job === job).map((l) => l.to)).size).toBe(1000);
    expect(launches).toHaveLength(2003);
    expect(peakSecond(launches.map((l) => l.at))).toBeLessThanOrEqual(RATE * 1.1);
  });

  it('goes round two big sends of a category: one that arrives later is not behind the other, both take turns', async () => {
    // Prepare: UTILITY sends of 1,000 and 300, the second 2 s after the first
    const plan: NumberPlan = { ...calm, jobs: [1000, 300], marketing: [false, false], arrivals: [0, 2_000] };
    // Act
    const { start, launches } = await dispatchOnOneNumber(plan);
    // Assess: the 300 start within a turn and end within about twice their own length (the number shared by two),
    // long before the 1,000, which went on meanwhile
    const own = 300 * INTERVAL_MS;
    expect(firstOf(launches, 1) - (start + 2_000)).toBeLessThanOrEqual(1_500);
    expect(lastOf(launches, 1) - (start + 2_000)).toBeLessThanOrEqual(2 * own + 2_500);
    expect(lastOf(launches, 1)).toBeLessThan(lastOf(launches, 0) - 5_000);
    const during = launchesOf(launches, 0).filter((at) => at > firstOf(launches, 1) && at < lastOf(launches, 1));
    expect(during.length).toBeGreaterThan(150);
    expect(launches).toHaveLength(1300);
    expect(peakSecond(launches.map((l) => l.at))).toBeLessThanOrEqual(RATE * 1.1);
  });

  it('sends AUTHENTICATION before UTILITY before MARKETING: a better rank takes the number within 2 s and holds it while it sends', async () => {
    // Prepare: MARKETING, UTILITY and AUTHENTICATION sends of 600 on one number, a second apart in that order
    const plan: NumberPlan = {
      ...calm,
      jobs: [600, 600, 600],
      marketing: [true, false, false],
      categories: ['MARKETING', 'UTILITY', 'AUTHENTICATION'],
      arrivals: [0, 1_000, 2_000],
    };
    // Act
    const { start, launches } = await dispatchOnOneNumber(plan);
    // Assess: each starts within 2 s of its arrival or of the better rank's end; they end in rank order, and no
    // worse rank launched while a better one was sending (but for what it had booked when the better one came)
    expect(firstOf(launches, 2) - (start + 2_000)).toBeLessThanOrEqual(2_000);
    expect(lastOf(launches, 2)).toBeLessThan(lastOf(launches, 1));
    expect(lastOf(launches, 1)).toBeLessThan(lastOf(launches, 0));
    const worseDuring = (better: number, worse: number) =>
      launchesOf(launches, worse).filter((at) => at > firstOf(launches, better) + 2_000 && at < lastOf(launches, better)).length;
    expect([worseDuring(2, 1), worseDuring(2, 0), worseDuring(1, 0)]).toEqual([0, 0, 0]);
    expect(launches).toHaveLength(1800);
    expect(peakSecond(launches.map((l) => l.at))).toBeLessThanOrEqual(RATE * 1.1);
  });
});

describe('an urgent send’s horizon at its number’s pace (issue 54)', () => {
  it('is the short horizon at STANDARD, grows with a faster pace up to a campaign’s, and a campaign’s never moves', () => {
    // Prepare
    const utility = bookingOf({ template: templateOf('UTILITY'), total_contacts: 1_000 });
    const marketing = bookingOf({ template: templateOf('MARKETING'), total_contacts: 1_000 });
    if (!utility.shared || !marketing.shared) throw new Error('both share the number');
    const at = (booking: typeof utility, level: 'STANDARD' | 'HIGH', cap?: number) => horizonAtPace(booking, 1000 / paceOf(level, cap));
    // Act / Assess
    expect(at(utility, 'STANDARD')).toBe(URGENT_HORIZON_MS);
    // docs/high-tier.md §1: 225 ms at a 200-a-second cap (paced at 180 a second: 100 ms × 12.5 / 5.56)
    expect(at(utility, 'HIGH', 200)).toBeCloseTo(225, 6);
    expect(at(utility, 'HIGH')).toBe(NEAR_MS);
    expect([at(marketing, 'STANDARD'), at(marketing, 'HIGH')]).toEqual([NEAR_MS, NEAR_MS]);
  });
});
