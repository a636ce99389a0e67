import { describe, expect, it } from 'vitest';
import { categoriesScenario, numbersScenario, sharedNumberScenario, tenantsScenario } from '../../bench/simulate.ts';

/**
 * The simulation of bench/simulate.ts at a small scale (issue 33): what `npm run simulate` shows at a provider's
 * scale holds here on every run, on the discrete-event clock.
 */
describe('the dispatch simulation (issue 33)', () => {
  it('starts small sends within 5 s (p99), on idle numbers and on campaigns’ numbers alike, with every number within 1.1 × its level', async () => {
    // Prepare, Act: 100 tenants, 10 running campaigns of 20,000, 20 invocations at most
    const figures = await tenantsScenario({ tenants: 100, campaigns: 10, campaignSize: 20_000, seconds: 30, concurrency: 20 });
    // Assess
    expect(figures.smallP99).toBeLessThanOrEqual(5_000);
    expect(figures.smallBusyP99).toBeLessThanOrEqual(5_000);
    expect(figures.peakShare).toBeLessThanOrEqual(1.1);
    expect(figures.hottest.units).toBeLessThanOrEqual(1_000);
    expect(figures.messages).toBeGreaterThan(0);
  });

  it('keeps as many numbers at their pace as its invocations take jobs at once: four jobs an invocation, four times the numbers', async () => {
    // Prepare, Act: 60 numbers, 15 invocations taking 4 jobs each, then 1
    const multiplexed = await numbersScenario({ numbers: 60, seconds: 5, concurrency: 15, batchSize: 4 });
    const single = await numbersScenario({ numbers: 60, seconds: 5, concurrency: 15, batchSize: 1 });
    // Assess: all 60 numbers near their pace (72 a second) with 4 jobs an invocation; about 15 with 1; never above it
    expect(multiplexed.perSecond).toBeGreaterThan(60 * 72 * 0.8);
    expect(single.perSecond).toBeLessThan(20 * 72);
    for (const figures of [multiplexed, single]) expect(figures.peakShare).toBeLessThanOrEqual(1.1);
  });

  it('has every send of 3 beside a UTILITY send of 3,000 on its number all sent within 2 s (p99), the number within 1.1 × its level (issue 44)', async () => {
    // Prepare, Act: the big send and sends of 3 arriving 2 a second for 10 s, 20 invocations at most
    const figures = await sharedNumberScenario({ bigSize: 3_000, seconds: 20, concurrency: 20 });
    // Assess
    expect(figures.smallP99).toBeLessThanOrEqual(2_000);
    expect(figures.peakShare).toBeLessThanOrEqual(1.1);
    expect(figures.hottest.units).toBeLessThanOrEqual(1_000);
    expect(figures.bigSent).toBeGreaterThan(1_000);
  });

  it('sends AUTHENTICATION before UTILITY before MARKETING on one number, whatever came first (issue 44)', async () => {
    // Prepare, Act: sends of 600 of each, a second apart, MARKETING first
    const [marketing, utility, authentication] = await categoriesScenario({ size: 600, seconds: 60 });
    // Assess: each complete, in the order of the categories' ranks
    for (const send of [marketing, utility, authentication]) expect(send.sent).toBe(600);
    expect(authentication.lastMs).toBeLessThan(utility.lastMs);
    expect(utility.lastMs).toBeLessThan(marketing.lastMs);
  });
});
