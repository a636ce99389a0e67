import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoSyncLeaseStore } from '#lib/adapters/dynamo/templates/lease-store.ts';
import { seedDirectory } from '../support/seed.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/** The lease on DynamoDB Local: one holder at a time, and a crashed holder blocks for 15 minutes at most. */
const leases = new DynamoSyncLeaseStore(table);
const FIFTEEN_MINUTES = 15 * 60 * 1000;

beforeAll(() => seedDirectory({}));

describe('sync lease', () => {
  it('lets one holder in at a time, even under concurrent attempts', async () => {
    const now = Date.now();
    const attempts = await Promise.all(Array.from({ length: 8 }, (_, i) => leases.acquire(9001, `lease-${i}`, now, FIFTEEN_MINUTES)));
    expect(attempts.filter(Boolean)).toHaveLength(1);
  });

  it('is free again after its expiry, and only its holder releases it', async () => {
    const t0 = Date.now();
    expect(await leases.acquire(9002, 'crashed', t0, FIFTEEN_MINUTES)).toBe(true);
    expect(await leases.acquire(9002, 'second', t0 + 60_000, FIFTEEN_MINUTES)).toBe(false);
    const later = t0 + FIFTEEN_MINUTES + 2000;
    expect(await leases.holds(9002, 'crashed', later)).toBe(false);
    expect(await leases.acquire(9002, 'second', later, FIFTEEN_MINUTES)).toBe(true);
    await leases.release(9002, 'crashed');
    expect(await leases.holds(9002, 'second', later)).toBe(true);
    await leases.release(9002, 'second');
    expect(await leases.acquire(9002, 'third', later, FIFTEEN_MINUTES)).toBe(true);
  });
});
