import type { Caller } from '#lib/auth/caller.ts';
import { conflict, upstreamUnavailable } from '#lib/errors.ts';
import { templateEvent, type EventPublisher, type ServiceEvent } from '#lib/events.ts';
import { logger } from '#lib/log.ts';
import {
  AssignmentConflict,
  type DirectoryStore,
  type JobQueue,
  type OutboxStore,
  type SyncLeaseStore,
  type TemplateRecordStore,
} from '#lib/store/ports.ts';
import type { GraphPage } from '#lib/upstream/graph-client.ts';
import { publishSaved } from './outbox.ts';
import { oldestRecord } from './template-listing.ts';
import { newRecordId, type MetaTemplate, type TemplateRecord } from './template-record.ts';
import { normalizeComponents } from './template-rules.ts';
import { actingClient } from './tenancy.ts';

/** POST /v1/templates/sync-from-meta and its worker (spec §9, decisions §4). */
export const LEASE_MS = 15 * 60 * 1000;
export const SYNC_RUNNING = 'A synchronization is already in progress';
const TEMPLATE_FIELDS = ['id', 'name', 'language', 'status', 'category', 'components', 'parameter_format', 'quality_score', 'previous_category', 'rejected_reason', 'message_send_ttl_seconds'];

export interface SyncUpstream {
  listTemplates(wabaId: string, query: Record<string, string | number | undefined>): Promise<GraphPage<Record<string, unknown>>>;
}

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
      await deps.upstream.listTemplates(wabas[0], { limit: 1, fields: 'id' });
    } catch {
      throw upstreamUnavailable();
    }
  }
  const leaseId = crypto.randomUUID();
  const now = deps.now?.() ?? Date.now();
  if (!(await deps.leases.acquire(clientId, leaseId, now, LEASE_MS))) throw conflict(SYNC_RUNNING);
  try {
    await deps.queue.send([{ client_id: clientId, lease_id: leaseId, requested_by: caller.sub, requested_at: new Date(now).toISOString() }]);
  } catch {
    await deps.leases.release(clientId, leaseId);
    throw upstreamUnavailable('Synchronization could not be queued');
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
  now?: () => Date;
}

async function upstreamTemplates(upstream: SyncUpstream, wabaId: string, clientId: number) {
  const all: MetaTemplate[] = [];
  let after: string | undefined;
  for (let page = 1; ; page++) {
    const result = await upstream.listTemplates(wabaId, { limit: 100, after, fields: TEMPLATE_FIELDS.join(',') });
    all.push(...(result.data as unknown as MetaTemplate[]));
    logger.info('sync progress', { client_id: clientId, waba_id: wabaId, page, templates_so_far: all.length });
    after = result.paging?.cursors?.after;
    if (!result.paging?.next || !after) return all;
  }
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
    logger.warn('sync skipped: the lease is no longer held', { client_id: clientId });
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
    for (const upstream of await upstreamTemplates(deps.upstream, wabaId, clientId)) {
      const meta = { ...upstream, id: String(upstream.id) } as MetaTemplate;
      seen.add(meta.id);
      const group = groups.get(`${wabaId}#${meta.id}`);
      if (!group) {
        const placeholder: TemplateRecord = {
          id: newRecordId(), client_id: clientId, waba_id: wabaId, namespace: waba?.namespace ?? '', active: false, meta_template: meta,
          isDirectMessage: false, associatedFlow: null, dynamicPricing: false, highQuality: false,
          syncMeta: { synced_at: stamp, source: 'sync' }, createdBy: 'sync', created_at: stamp, updated_at: stamp,
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
  // Events go through the outbox in transactions within DynamoDB's 100-item limit.
  for (let i = 0; i < events.length; i += 100) {
    const batch = events.slice(i, i + 100);
    await deps.records.register([], batch);
    await publishSaved(deps.publisher, deps.outbox, batch);
  }
  await deps.leases.release(clientId, job.lease_id);
  logger.info('sync finished', { client_id: clientId, ...counts });
  return counts;
}
