import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { peakSecond } from '../support/accept-times.ts';
import { dispatchOnOneNumber, type NumberPlan } from '../support/number-dispatch.ts';

/**
 * The pace the dispatcher makes, on a discrete-event clock (issue 32): 2 to 4 jobs on one STANDARD number (80 a
 * second) at once, under random schedules of whole-process stalls, one invocation whose timers fire late, slow
 * upstream answers and a slow store, campaigns (booked a chunk at a time) beside priority sends (booked a block
 * at a time; decisions §23). Whatever the schedule, the union of launches (the moment each message
 * request leaves) holds at most 1.1 × 80 in any second, every recipient is sent exactly once, and the number's
 * pacing item takes at most one write per 20 messages. No wall time is involved.
 */
const RATE = 80;

/** Schedules of jobs of these sizes, with at most `stalls` stalls in the first `within` ms and timers up to `lateMs` late. */
const schedules = (sizes: { min: number; max: number; jobs: number }, stalls: { most: number; within: number }, lateMs: number) =>
  fc.record<NumberPlan>({
    jobs: fc.array(fc.integer(sizes), { minLength: 2, maxLength: sizes.jobs }),
    marketing: fc.array(fc.boolean(), { minLength: sizes.jobs, maxLength: sizes.jobs }),
    stalls: fc.array(fc.record({ at: fc.integer({ min: 0, max: stalls.within }), ms: fc.integer({ min: 20, max: 3_000 }) }), {
      maxLength: stalls.most,
    }),
    lateInvocation: fc.option(fc.record({ which: fc.nat({ max: sizes.jobs - 1 }), upToMs: fc.integer({ min: 10, max: lateMs }) }), {
      nil: null,
    }),
    answerMs: fc.record({ min: fc.integer({ min: 1, max: 200 }), spread: fc.integer({ min: 0, max: 800 }) }),
    storeMs: fc.integer({ min: 0, max: 60 }),
    seed: fc.integer(),
  });
const schedule = schedules({ min: 1, max: 300, jobs: 4 }, { most: 4, within: 12_000 }, 400);

describe('the dispatcher’s pace on a discrete-event clock (issue 32)', () => {
  it('keeps every second at launch within 1.1 × the rate and sends each recipient once, whatever stalls and lanes, with a write of the pacing item per block (or chunk) and per stall it meets', async () => {
    await fc.assert(
      fc.asyncProperty(schedule, async (plan) => {
        // Act
        const { launches, pacer, store } = await dispatchOnOneNumber(plan);
        const total = plan.jobs.reduce((sum, n) => sum + n, 0);
        // Assess
        const perRecipient = new Map<string, number>();
        for (const l of launches) perRecipient.set(`${l.job}/${l.to}`, (perRecipient.get(`${l.job}/${l.to}`) ?? 0) + 1);
        expect(perRecipient.size).toBe(total);
        expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
        for (const [i, size] of plan.jobs.entries()) expect((await store.get(`send-${i}`))?.counts?.sent).toBe(size);
        expect(peakSecond(launches.map((l) => l.at))).toBeLessThanOrEqual(RATE * 1.1);
        // The pacing item: one write a block (three for a campaign's, booked a chunk at a time), one more for each
        // stall a block with slots booked meets (a job's current block and the next, booked while the current one
        // sends), and for an invocation whose timers fire late a few while its spacing doubles to what it keeps
        // (at most 7 a block).
        const blocksOf = (n: number) => Math.ceil(n / 90);
        const bookingsOf = (n: number, i: number) => (plan.marketing[i] && n > 100 ? 3 : 1) * blocksOf(n);
        const lateBlocks = plan.lateInvocation && plan.jobs[plan.lateInvocation.which] ? blocksOf(plan.jobs[plan.lateInvocation.which]) : 0;
        const writes =
          plan.jobs.reduce((sum, n, i) => sum + bookingsOf(n, i), 0) + 2 * plan.stalls.length * plan.jobs.length + 7 * lateBlocks;
        expect(pacer.reservations.length).toBeLessThanOrEqual(writes);
      }),
      { numRuns: Number(process.env.PACE_RUNS ?? 40) },
    );
  });

  it('writes the pacing item at most once per 20 messages at a production send’s size, with stalls and a busy invocation', async () => {
    const production = schedules({ min: 400, max: 1000, jobs: 3 }, { most: 3, within: 20_000 }, 150);
    await fc.assert(
      fc.asyncProperty(production, async (plan) => {
        // Act
        const { launches, pacer } = await dispatchOnOneNumber(plan);
        // Assess
        expect(peakSecond(launches.map((l) => l.at))).toBeLessThanOrEqual(RATE * 1.1);
        expect(pacer.reservations.length).toBeLessThanOrEqual(launches.length / 20);
      }),
      { numRuns: Number(process.env.PACE_RUNS ?? 8) },
    );
  });

  it('goes round the sends of a category on one number (issue 44): a later send is never behind an earlier big one, whatever stalls and latencies, each recipient once, within 1.1 × the rate', async () => {
    const INTERVAL_MS = 1000 / 72;
    const plans = fc.record({
      category: fc.constantFrom('AUTHENTICATION', 'UTILITY', 'MARKETING'),
      big: fc.integer({ min: 600, max: 1200 }),
      later: fc.array(fc.record({ size: fc.integer({ min: 1, max: 400 }), at: fc.integer({ min: 500, max: 6_000 }) }), {
        minLength: 1,
        maxLength: 2,
      }),
      stalls: fc.array(fc.record({ at: fc.integer({ min: 0, max: 12_000 }), ms: fc.integer({ min: 20, max: 2_000 }) }), { maxLength: 2 }),
      answerMs: fc.record({ min: fc.integer({ min: 1, max: 200 }), spread: fc.integer({ min: 0, max: 400 }) }),
      storeMs: fc.integer({ min: 0, max: 30 }),
      seed: fc.integer(),
    });
    await fc.assert(
      fc.asyncProperty(plans, async ({ category, big, later, stalls, answerMs, storeMs, seed }) => {
        // Prepare: a big send of the category, then one or two more of it arriving while it goes
        const jobs = [big, ...later.map((l) => l.size)];
        const plan: NumberPlan = {
          jobs,
          marketing: jobs.map(() => category === 'MARKETING'),
          categories: jobs.map(() => category),
          arrivals: [0, ...later.map((l) => l.at)],
          stalls,
          lateInvocation: null,
          answerMs,
          storeMs,
          seed,
        };
        // Act
        const { start, launches, pacer } = await dispatchOnOneNumber(plan);
        // Assess: each later send ends within its share of the number (its length once per send ready beside it)
        // and a turn or two, plus what each stall costs (itself, and a block it slowed booking up to 4 s of the
        // number: lanes.ts): not behind the big one; the number within its rate, each once, and the pacing item
        // written at most once per 20 messages of each send (and per stall it meets)
        const stalled = stalls.reduce((sum, stall) => sum + stall.ms + 4_000, 0);
        for (const [i, { size, at }] of later.entries()) {
          const mine = launches.filter((l) => l.job === i + 1).map((l) => l.at);
          expect(mine).toHaveLength(size);
          const share = size <= 100 ? size : size * jobs.length;
          expect(Math.max(...mine) - (start + at)).toBeLessThanOrEqual(share * INTERVAL_MS * 1.2 + 3_500 + stalled);
        }
        expect(new Set(launches.map((l) => `${l.job}/${l.to}`)).size).toBe(launches.length);
        expect(launches).toHaveLength(jobs.reduce((sum, n) => sum + n, 0));
        expect(peakSecond(launches.map((l) => l.at))).toBeLessThanOrEqual(RATE * 1.1);
        const writes = jobs.reduce((sum, n) => sum + Math.ceil(n / 20), 0) + 2 * stalls.length * jobs.length;
        expect(pacer.reservations.length + pacer.wants).toBeLessThanOrEqual(writes);
      }),
      {
        numRuns: Number(process.env.PACE_RUNS ?? 20),
        // Found by a random seed: three AUTHENTICATION sends, the one of 101 lost the race for its turn to each of
        // the others by milliseconds and waited 9.2 s for its last 11 (the bound 8.6 s); a longer wait now asks first.
        examples: [
          [
            {
              category: 'AUTHENTICATION',
              big: 600,
              later: [
                { size: 186, at: 4899 },
                { size: 101, at: 3168 },
              ],
              stalls: [],
              answerMs: { min: 1, spread: 0 },
              storeMs: 18,
              seed: 517194731,
            },
          ],
          // And a send of 15 whose first two launches had a stall of 432 ms between them: that was read as its pace,
          // its last 13 slots 479 ms apart (lib/domain/sends/dispatch/slots.ts now reads a pace from three launches).
          [
            {
              category: 'AUTHENTICATION',
              big: 600,
              later: [{ size: 15, at: 500 }],
              stalls: [{ at: 1254, ms: 432 }],
              answerMs: { min: 1, spread: 0 },
              storeMs: 1,
              seed: 0,
            },
          ],
        ],
      },
    );
  });
});
