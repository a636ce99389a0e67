import { describe, expect, it } from 'vitest';
import { CAPPED_BY_RULE_OUTCOME, settlePlace, takePlace } from '#lib/domain/sends/dispatch/frequency-cap.ts';
import { silentLog } from '#lib/domain/shared/log.ts';
import { jobOf } from '../../../support/dispatch-jobs.ts';
import { MemoryMarketingCounts } from '../../../support/memory/people/frequency-caps.ts';

/** A recipient's place under its send's frequency cap (decisions §33), taken before its launch and given back unsent. */
describe('a place under the frequency cap', () => {
  const T = Date.parse('2026-11-20T10:00:00.000Z');
  const cap = { max: 1, days: 7 };
  const capped = (keys?: string[]) => jobOf([{ to: '5215550100', ...(keys && { cap_keys: keys }) }], { frequency_cap: cap });

  it('is taken for a capped send’s recipient, and refused at the cap', async () => {
    // Prepare
    const deps = { marketingCounts: new MemoryMarketingCounts(), log: silentLog };
    const job = capped(['p:5215550100']);
    // Act
    const first = await takePlace(deps, job, 0, T);
    const second = await takePlace(deps, job, 0, T + 1_000);
    // Assess
    expect([first, second]).toEqual([T / 1000, 'capped']);
    expect(CAPPED_BY_RULE_OUTCOME).toMatchObject({ kind: 'failed', code: 'capped_by_rule' });
  });

  it('is not asked for a send without a cap, a recipient without keys, or a dispatcher without counts', async () => {
    // Prepare
    const counts = new MemoryMarketingCounts();
    // Act
    const places = await Promise.all([
      takePlace({ marketingCounts: counts, log: silentLog }, jobOf([{ to: '5215550100', cap_keys: ['p:5215550100'] }]), 0, T),
      takePlace({ marketingCounts: counts, log: silentLog }, capped(), 0, T),
      takePlace({ log: silentLog }, capped(['p:5215550100']), 0, T),
    ]);
    // Assess
    expect(places).toEqual([undefined, undefined, undefined]);
    expect(counts.writes).toBe(0);
  });

  it('is given back when the message was not sent, and kept when it was sent or its answer never came', async () => {
    // Prepare
    const counts = new MemoryMarketingCounts();
    const deps = { marketingCounts: counts, log: silentLog };
    const job = jobOf([{ to: '5215550100', cap_keys: ['p:5215550100'] }], { frequency_cap: { max: 3, days: 7 } });
    const places = [];
    for (let i = 0; i < 3; i++) places.push((await takePlace(deps, job, 0, T + i * 1_000)) as number);
    // Act
    await settlePlace(deps, job, 0, places[0], { kind: 'sent', message_id: 'wamid.1' });
    await settlePlace(deps, job, 0, places[1], { kind: 'failed', code: 'outcome_unknown', title: 'No answer' });
    await settlePlace(deps, job, 0, places[2], { kind: 'failed', code: '131026', title: 'Undeliverable' });
    // Assess
    expect(counts.counts.get('7|p:5215550100')?.at).toEqual([places[0], places[1]]);
  });
});
