import { describe, expect, it } from 'vitest';
import { numbersScenario, tenantsScenario } from '../../bench/simulate.ts';

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

  it('keeps as many numbers at their pace as it has invocations', async () => {
    // Prepare, Act: 60 numbers, 40 invocations
    const figures = await numbersScenario({ numbers: 60, seconds: 5, concurrency: 40 });
    // Assess: about 40 numbers' worth of messages (72 a second each), never more
    expect(figures.perSecond).toBeGreaterThan(40 * 72 * 0.8);
    expect(figures.perSecond).toBeLessThanOrEqual(60 * 72 * 1.1);
    expect(figures.peakShare).toBeLessThanOrEqual(1.1);
  });
});
