import { describe, expect, it } from 'vitest';
import { silentLog } from '#lib/domain/shared/log.ts';
import { abandonSync } from '#lib/domain/templates/sync.ts';
import { MemorySyncLeaseStore } from '../../support/memory/templates/sync-lease-store.ts';

describe('a sync job given up on (its dead-letter queue, issue 23)', () => {
  it('gives the lease back and records the run failed as abandoned', async () => {
    // Prepare: client 7's lease, held by the job
    const leases = new MemorySyncLeaseStore();
    const now = Date.parse('2026-11-24T10:00:00Z');
    await leases.acquire(7, 'lease-1', now, 15 * 60_000);
    // Act
    await abandonSync(
      { leases, log: silentLog, now: () => new Date(now + 60_000) },
      { client_id: 7, lease_id: 'lease-1', requested_at: '2026-11-24T10:00:00.000Z' },
    );
    // Assess: no sync running, the run failed with the reason, and a new lease can be taken at once
    const state = await leases.state(7, now + 60_000);
    expect(state.running).toBeUndefined();
    expect(state.lastRun).toMatchObject({
      result: 'failed',
      started_at: '2026-11-24T10:00:00.000Z',
      error: expect.stringContaining('sync_abandoned'),
    });
    expect(await leases.acquire(7, 'lease-2', now + 60_000, 15 * 60_000)).toBe(true);
  });
});
