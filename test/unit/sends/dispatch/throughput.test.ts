import { describe, expect, it } from 'vitest';
import { silentLog } from '#lib/domain/shared/log.ts';
import type { ThroughputLevel } from '#lib/domain/shared/ports.ts';
import { paceOf, throughputLevel } from '#lib/domain/sends/dispatch/throughput.ts';
import { LEVEL_REFRESH_MS, PACE_SHARE } from '#lib/domain/sends/dispatch/tuning.ts';
import { MemoryThroughputStore } from '../../../support/memory/sends/throughput-store.ts';

/** A number's throughput level and the pace kept for it (decisions §19, upstream-facts §6.3). */
describe('throughput', () => {
  const number = { digits: '5215550001', phoneNumberId: '110001' };
  const world = (answers: (ThroughputLevel | Error)[]) => {
    const asked: number[] = [];
    const upstream = {
      async throughputOf() {
        asked.push(asked.length);
        const answer = answers.shift() ?? 'STANDARD';
        if (answer instanceof Error) throw answer;
        return answer;
      },
    };
    return { deps: { levels: new MemoryThroughputStore(), upstream, log: silentLog }, asked };
  };

  it('paces a number a tenth under its level’s rate, or under the cap when that is lower', () => {
    // Act
    const paces = [paceOf('STANDARD'), paceOf('HIGH'), paceOf('COEXISTENCE'), paceOf('HIGH', 20)];
    // Assess
    expect(paces).toEqual([80 * PACE_SHARE, 1000 * PACE_SHARE, 20 * PACE_SHARE, 20 * PACE_SHARE]);
  });

  it('learns a level once and asks again after LEVEL_REFRESH_MS', async () => {
    // Prepare
    const { deps, asked } = world(['HIGH', 'COEXISTENCE']);
    // Act
    const first = await throughputLevel(deps, number, 0);
    const fresh = await throughputLevel(deps, number, LEVEL_REFRESH_MS - 1);
    const refreshed = await throughputLevel(deps, number, LEVEL_REFRESH_MS);
    // Assess
    expect([first, fresh, refreshed]).toEqual(['HIGH', 'HIGH', 'COEXISTENCE']);
    expect(asked).toHaveLength(2);
  });

  it('keeps the level it knew (or the standard one) when the upstream does not answer', async () => {
    // Prepare
    const { deps } = world([new Error('timeout'), 'HIGH', new Error('timeout')]);
    // Act
    const unknown = await throughputLevel(deps, number, 0);
    const learned = await throughputLevel(deps, number, 1);
    const kept = await throughputLevel(deps, number, 1 + LEVEL_REFRESH_MS);
    // Assess
    expect([unknown, learned, kept]).toEqual(['STANDARD', 'HIGH', 'HIGH']);
  });
});
