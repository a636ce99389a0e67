import { describe, expect, it } from 'vitest';
import { Conflict, UpstreamUnavailable } from '#lib/domain/shared/errors.ts';
import { runSync, startSync, syncStatus } from '#lib/domain/templates/sync.ts';
import { isPlaceholder } from '#lib/domain/templates/template-record.ts';
import { bspCaller, callerOf, type MemoryWorld, memoryWorld } from '../../support/memory/world.ts';

const acme = callerOf(7);
const WABA = '100200300';

async function syncOnce(world: MemoryWorld, clientId = 7) {
  await startSync(world, callerOf(clientId), {});
  const job = world.queue.sent.at(-1) as { client_id: number; lease_id: string };
  return runSync(world, job);
}

describe('sync from the upstream (use cases, in memory)', () => {
  it('takes the client’s lease and queues one job; a second start meanwhile is a Conflict', async () => {
    const world = memoryWorld();
    await startSync(world, acme, {});
    await expect(startSync(world, acme, {})).rejects.toBeInstanceOf(Conflict);
    expect(world.queue.sent).toHaveLength(1);
  });

  it('answers UpstreamUnavailable before taking a lease when the upstream is down', async () => {
    const world = memoryWorld();
    world.emulator.faults.add({ path: '/message_templates', status: 503 });
    await expect(startSync(world, acme, {})).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(world.leases.leases.size).toBe(0);
  });

  it('stores a changed status on every record of the template with one status_changed event, and releases the lease', async () => {
    // Prepare: the upstream rejects template 9001 after review
    const world = memoryWorld();
    world.emulator.model.findTemplate('9001')!.template.status = 'REJECTED';
    // Act
    const counts = await syncOnce(world);
    // Assess
    expect(counts).toMatchObject({ status_changed: 1 });
    const records = await world.records.listForTemplate(WABA, '9001', 7);
    expect(records.every((r) => r.meta_template.status === 'REJECTED')).toBe(true);
    expect(world.publisher.published.filter((e) => e.type === 'template.status_changed')).toHaveLength(1);
    expect(world.leases.leases.size).toBe(0);
  });

  it('gives the client a placeholder for an upstream template it had no record of, and marks vanished ones deleted', async () => {
    const world = memoryWorld();
    const waba = world.emulator.model.wabas.get(WABA)!;
    waba.templates.push({ ...structuredClone(waba.templates[0]), id: '9999', name: 'brand_new' });
    waba.templates = waba.templates.filter((t) => t.id !== '9003');
    await syncOnce(world);
    const fresh = await world.records.listForTemplate(WABA, '9999', 7);
    expect(fresh).toHaveLength(1);
    expect(isPlaceholder(fresh[0])).toBe(true);
    expect((await world.records.listForTemplate(WABA, '9003', 7)).every((r) => r.deleted)).toBe(true);
  });

  it('writes nothing when nothing changed upstream', async () => {
    const world = memoryWorld();
    await syncOnce(world);
    const before = JSON.stringify([...world.templateTable.records.values()].map((r) => r.updated_at));
    const published = world.publisher.published.length;
    await syncOnce(world);
    expect(JSON.stringify([...world.templateTable.records.values()].map((r) => r.updated_at))).toBe(before);
    expect(world.publisher.published.length).toBe(published);
  });
});

describe('a sync that fails on one WABA (use case, in memory)', () => {
  it('finishes the others, keeps their events, releases the lease at once and records the failure', async () => {
    // Prepare: client 7 has WABAs 100200300 and 100200301; the second answers 503; the first has a review result
    const world = memoryWorld();
    world.emulator.model.findTemplate('9001')!.template.status = 'REJECTED';
    world.emulator.faults.add({ path: '/100200301/message_templates', status: 503 });
    // Act
    await syncOnce(world);
    // Assess
    expect((await world.records.listForTemplate(WABA, '9001', 7)).every((r) => r.meta_template.status === 'REJECTED')).toBe(true);
    expect(world.publisher.published.filter((e) => e.type === 'template.status_changed')).toHaveLength(1);
    expect(world.leases.leases.size).toBe(0);
    const { lastRun } = await world.leases.state(7, Date.now());
    expect(lastRun).toMatchObject({ result: 'failed', error: expect.stringContaining('100200301') });
    await expect(startSync(world, acme, {})).resolves.toMatchObject({ status: 'started' });
  });

  it('skips a template it cannot store and syncs the rest', async () => {
    const world = memoryWorld();
    const waba = world.emulator.model.wabas.get(WABA)!;
    waba.templates.push({
      ...structuredClone(waba.templates[0]),
      id: '9998',
      name: 'huge',
      components: [{ type: 'BODY', text: 'x'.repeat(500 * 1024) }],
    });
    waba.templates.push({ ...structuredClone(waba.templates[0]), id: '9997', name: 'small_new' });
    const counts = await syncOnce(world);
    expect(counts).toMatchObject({ skipped: 1 });
    expect(await world.records.listForTemplate(WABA, '9997', 7)).toHaveLength(1);
    expect((await world.leases.state(7, Date.now())).lastRun).toMatchObject({ result: 'succeeded' });
  });
});

describe('sync status (use case, in memory; decisions §14)', () => {
  it('is idle before any run, shows a running run’s progress on its lease, and the last run once it ends', async () => {
    // Prepare: the second WABA's listing is watched, so the status can be read while the run is between WABAs
    const world = memoryWorld();
    const seen: unknown[] = [];
    const idle = await syncStatus(world, acme, {});
    await startSync(world, acme, {});
    const job = world.queue.sent.at(-1) as { client_id: number; lease_id: string };
    const templatesOf = world.upstream.templatesOf.bind(world.upstream);
    world.upstream.templatesOf = async function* (wabaId: string) {
      if (wabaId === '100200301') seen.push(await syncStatus(world, acme, {}));
      yield* templatesOf(wabaId);
    };
    // Act
    await runSync(world, job);
    const after = await syncStatus(world, acme, {});
    // Assess
    expect(idle).toEqual({ clientId: 7, state: 'idle' });
    expect(seen).toEqual([
      {
        clientId: 7,
        state: 'running',
        started_at: expect.any(String),
        progress: { wabas_done: 1, wabas_total: 2, pages: 1, templates_seen: expect.any(Number), changes: expect.any(Number) },
      },
    ]);
    expect(after).toEqual({
      clientId: 7,
      state: 'idle',
      last_run: {
        started_at: expect.any(String),
        finished_at: expect.any(String),
        result: 'succeeded',
        templates_seen: expect.any(Number),
        changes: expect.any(Number),
      },
    });
  });

  it('answers for another client only to BSP_CN', async () => {
    const world = memoryWorld();
    await expect(syncStatus(world, acme, { client_id: 8 })).rejects.toThrow();
    await expect(syncStatus(world, bspCaller(7), { client_id: 8 })).resolves.toMatchObject({ clientId: 8, state: 'idle' });
  });
});
