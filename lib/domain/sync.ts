import type { Caller } from './caller.ts';
import { Conflict, UpstreamUnavailable } from './errors.ts';
import { templateEvent, type ServiceEvent } from './events.ts';
import type { Log } from './log.ts';
import {
  AssignmentConflict,
  type DirectoryStore,
  type EventPublisher,
  type JobQueue,
  type OutboxStore,
  type SyncLeaseStore,
  type TemplateRecordStore,
  type TemplateUpstream,
} from './ports.ts';
import { publishSaved } from './outbox.ts';
import { oldestRecord } from './template-listing.ts';
import { newRecordId, type MetaTemplate, type TemplateRecord } from './template-record.ts';
import { normalizeComponents } from './template-rules/changes.ts';
import { actingClient } from './tenancy.ts';

/** POST /v1/templates/sync-from-meta and its worker (spec §9, decisions §4). */
export const LEASE_MS = 15 * 60 * 1000;
export const SYNC_RUNNING = 'A synchronization is already in progress';

export type SyncUpstream = Pick<TemplateUpstream, 'probe' | 'templatesOf'>;

export interface StartSyncDeps {
  directory: DirectoryStore;
  leases: SyncLeaseStore;
  queue: JobQueue;
  upstream: SyncUpstream;
  now?: () => number;
}

/**
 * Takes the client's lease and queues the sync. The upstream is probed first, so an unreachable upstream is
 * a 502 rather than a sync that can only fail; the lease is given back if the job cannot be queued.
 */
export async function startSync(deps: StartSyncDeps, caller: Caller, input: { client_id?: number }) {
  const clientId = actingClient(caller, input.client_id);
  const wabas = await deps.directory.listClientWabas(clientId);
  if (wabas.length > 0) {
    try {
      await deps.upstream.probe(wabas[0]);
    } catch {
      throw new UpstreamUnavailable();
    }
  }
  const leaseId = crypto.randomUUID();
  const now = deps.now?.() ?? Date.now();
  if (!(await deps.leases.acquire(clientId, leaseId, now, LEASE_MS))) throw new Conflict(SYNC_RUNNING);
  try {
    await deps.queue.send([
      { client_id: clientId, lease_id: leaseId, requested_by: caller.sub, requested_at: new Date(now).toISOString() },
    ]);
  } catch {
    await deps.leases.release(clientId, leaseId);
    throw new UpstreamUnavailable('Synchronization could not be queued');
  }
  return { status: 'started', message: `Synchronization of client ${clientId}'s templates started`, clientId };
}

export interface RunSyncDeps {
  directory: DirectoryStore;
  records: TemplateRecordStore;
  leases: SyncLeaseStore;
  outbox: OutboxStore;
  publisher: EventPublisher;
  upstream: SyncUpstream;
  log: Log;
  now?: () => Date;
}

async function upstreamTemplates(deps: RunSyncDeps, wabaId: string, clientId: number) {
  const all: MetaTemplate[] = [];
  let page = 0;
  for await (const templates of deps.upstream.templatesOf(wabaId)) {
    all.push(...templates);
    deps.log.info('sync progress', { client_id: clientId, waba_id: wabaId, page: ++page, templates_so_far: all.length });
  }
  return all;
}

const sameMeta = (a: MetaTemplate, b: MetaTemplate) => normalizeComponents(a) === normalizeComponents(b);

/**
 * The sync itself, idempotent: for every WABA of the client, each upstream template updates the client's
 * records of it (a status change fires template.status_changed), gets an Unassigned placeholder when the
 * client had none, and records whose template is gone upstream are marked deleted.
 */
export async function runSync(deps: RunSyncDeps, job: { client_id: number; lease_id: string }) {
  const clientId = job.client_id;
  const startedAt = deps.now?.() ?? new Date();
  if (!(await deps.leases.holds(clientId, job.lease_id, startedAt.getTime()))) {
    deps.log.warn('sync skipped: the lease is no longer held', { client_id: clientId });
    return { skipped: true };
  }
  const stamp = startedAt.toISOString();
  const counts = { updated: 0, created: 0, deleted: 0, status_changed: 0 };
  const records = await deps.records.listForClient(clientId);
  const groups = new Map<string, TemplateRecord[]>();
  for (const record of records) {
    const key = `${record.waba_id}#${record.meta_template.id}`;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  const events: ServiceEvent[] = [];
  for (const wabaId of await deps.directory.listClientWabas(clientId)) {
    const waba = await deps.directory.getWaba(wabaId);
    const seen = new Set<string>();
    for (const upstream of await upstreamTemplates(deps, wabaId, clientId)) {
      const meta = { ...upstream, id: String(upstream.id) } as MetaTemplate;
      seen.add(meta.id);
      const group = groups.get(`${wabaId}#${meta.id}`);
      if (!group) {
        const placeholder: TemplateRecord = {
          id: newRecordId(),
          client_id: clientId,
          waba_id: wabaId,
          namespace: waba?.namespace ?? '',
          active: false,
          meta_template: meta,
          isDirectMessage: false,
          associatedFlow: null,
          dynamicPricing: false,
          highQuality: false,
          syncMeta: { synced_at: stamp, source: 'sync' },
          createdBy: 'sync',
          created_at: stamp,
          updated_at: stamp,
        };
        try {
          await deps.records.register([placeholder], []);
          counts.created++;
        } catch (error) {
          // A concurrent registration made the placeholder first: nothing to add.
          if (!(error instanceof AssignmentConflict)) throw error;
        }
        continue;
      }
      const current = group[0].meta_template;
      if (!sameMeta(current, meta)) {
        await deps.records.replaceMetaTemplate(group, meta, 'sync', stamp);
        counts.updated++;
        if (current.status !== meta.status) {
          events.push(templateEvent('template.status_changed', { ...oldestRecord(group), meta_template: meta }, stamp));
          counts.status_changed++;
        }
      }
      const back = group.filter((r) => r.deleted);
      if (back.length > 0) await deps.records.markDeleted(back, false, stamp);
    }
    for (const [key, group] of groups) {
      if (!key.startsWith(`${wabaId}#`) || seen.has(group[0].meta_template.id)) continue;
      const live = group.filter((r) => !r.deleted);
      if (live.length > 0) {
        await deps.records.markDeleted(live, true, stamp);
        counts.deleted++;
      }
    }
  }
  // Events go through the outbox, then out.
  if (events.length > 0) {
    await deps.records.register([], events);
    await publishSaved(deps, events);
  }
  await deps.leases.release(clientId, job.lease_id);
  deps.log.info('sync finished', { client_id: clientId, ...counts });
  return counts;
}
