import type { Caller } from '../shared/caller.ts';
import { Conflict, UpstreamUnavailable } from '../shared/errors.ts';
import type { ServiceEvent } from '../webhooks/events.ts';
import { templateEvent } from './template-events.ts';
import type { Log } from '../shared/log.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import type { EventPublisher, OutboxStore } from '../webhooks/ports.ts';
import type { JobQueue } from '../shared/ports.ts';
import type { SyncLeaseStore } from './ports.ts';
import type { TemplateRecords } from './ports.ts';
import type { TemplateUpstream } from './ports.ts';
import { publishSaved } from '../webhooks/outbox.ts';
import { oldestRecord } from './template-listing.ts';
import { newRecordId, type MetaTemplate, type TemplateRecord } from './template-record.ts';
import { normalizeComponents } from './rules/changes.ts';
import { actingClient } from '../shared/tenancy.ts';

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
export async function startSync(deps: StartSyncDeps, caller: Caller, input: { client_id?: number }, requestId?: string) {
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
      {
        client_id: clientId,
        lease_id: leaseId,
        requested_by: caller.sub,
        requested_at: new Date(now).toISOString(),
        ...(requestId && { request_id: requestId }),
      },
    ]);
  } catch {
    await deps.leases.release(clientId, leaseId);
    throw new UpstreamUnavailable('Synchronization could not be queued');
  }
  return { status: 'started', message: `Synchronization of client ${clientId}'s templates started`, clientId };
}

/** GET /v1/templates/sync-from-meta (decisions §14): the running sync's progress and the last run's result. */
export async function syncStatus(deps: { leases: SyncLeaseStore; now?: () => number }, caller: Caller, input: { client_id?: number }) {
  const clientId = actingClient(caller, input.client_id);
  const { running, lastRun } = await deps.leases.state(clientId, deps.now?.() ?? Date.now());
  // Fields in the contract's order, whatever order the store kept them in.
  const progress = running?.progress && {
    wabas_done: running.progress.wabas_done,
    wabas_total: running.progress.wabas_total,
    pages: running.progress.pages,
    templates_seen: running.progress.templates_seen,
    changes: running.progress.changes,
  };
  const last = lastRun && {
    started_at: lastRun.started_at,
    finished_at: lastRun.finished_at,
    result: lastRun.result,
    templates_seen: lastRun.templates_seen,
    changes: lastRun.changes,
    ...(lastRun.error !== undefined && { error: lastRun.error }),
  };
  return {
    clientId,
    state: running ? ('running' as const) : ('idle' as const),
    ...(running && { started_at: running.started_at }),
    ...(progress && { progress }),
    ...(last && { last_run: last }),
  };
}

/** A sync job as the POST queues it; `request_id` is the POST's, carried by the run's events. */
export interface SyncJob {
  client_id: number;
  lease_id: string;
  requested_at?: string;
  request_id?: string;
}

export interface RunSyncDeps {
  directory: DirectoryStore;
  records: TemplateRecords;
  leases: SyncLeaseStore;
  outbox: OutboxStore;
  publisher: EventPublisher;
  upstream: SyncUpstream;
  log: Log;
  now?: () => Date;
}

const sameMeta = (a: MetaTemplate, b: MetaTemplate) => normalizeComponents(a) === normalizeComponents(b);

/** What a run did, for the log and the client's sync status (decisions §14). */
export interface SyncCounts {
  updated: number;
  created: number;
  deleted: number;
  status_changed: number;
  templates_seen: number;
  skipped: number;
  pages: number;
}

/** One run of a client's sync, as each WABA's part of it sees it. */
interface SyncRun {
  clientId: number;
  stamp: string;
  counts: SyncCounts;
  reportProgress: () => Promise<void>;
  correlationId?: string;
}

const changesOf = (counts: SyncCounts) => counts.updated + counts.created + counts.deleted;

/**
 * One WABA of the client: each upstream template updates the client's records of it (a status change writes
 * its template.status_changed event in the same write), gets an Unassigned placeholder when the client had
 * none, and records whose template is gone upstream are marked deleted. The events are published as soon as
 * the WABA is done; whatever happens later, they are in the outbox already.
 */
async function syncWaba(deps: RunSyncDeps, run: SyncRun, wabaId: string, groups: Map<string, TemplateRecord[]>) {
  const { clientId, stamp, counts, reportProgress } = run;
  const waba = await deps.directory.getWaba(wabaId);
  const seen = new Set<string>();
  const events: ServiceEvent[] = [];
  const placeholders: TemplateRecord[] = [];
  for await (const templates of deps.upstream.templatesOf(wabaId)) {
    counts.templates_seen += templates.length;
    counts.pages++;
    deps.log.info('sync progress', { client_id: clientId, waba_id: wabaId, pages: counts.pages, templates_so_far: counts.templates_seen });
    for (const upstream of templates) {
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
        const problem = deps.records.storageProblem(placeholder);
        if (problem) {
          // One template the table cannot hold must not stop the others.
          deps.log.error('sync skipped a template it cannot store', {
            client_id: clientId,
            waba_id: wabaId,
            template_id: meta.id,
            reason: problem.message,
          });
          counts.skipped++;
          continue;
        }
        placeholders.push(placeholder);
        continue;
      }
      if (!sameMeta(group[0].meta_template, meta)) {
        // Decided again on the records as they are when written: a notification from the upstream may have
        // brought the same news meanwhile, with its own event.
        const { revised, events: written } = await deps.records.reviseTemplate(
          { wabaId, templateId: meta.id, clientId },
          (held) => {
            const first = oldestRecord(held);
            if (sameMeta(first.meta_template, meta)) return null;
            const statusChanged = first.meta_template.status !== meta.status;
            return {
              meta,
              events: statusChanged
                ? [templateEvent('template.status_changed', { ...first, meta_template: meta }, run.stamp, run.correlationId)]
                : [],
            };
          },
          stamp,
          'sync',
        );
        events.push(...written);
        if (revised) counts.updated++;
        counts.status_changed += written.length;
      }
      const back = group.filter((r) => r.deleted);
      if (back.length > 0) await deps.records.markDeleted(back, false, stamp);
    }
    // Written a page at a time, in as few writes as the store allows; one a concurrent create registered first
    // has its records already: nothing to add.
    const batch = placeholders.splice(0);
    const { refused } = await deps.records.registerEach(batch);
    counts.created += batch.length - refused.length;
    await reportProgress();
  }
  for (const [key, group] of groups) {
    if (!key.startsWith(`${wabaId}#`) || seen.has(group[0].meta_template.id)) continue;
    const live = group.filter((r) => !r.deleted);
    if (live.length > 0) {
      await deps.records.markDeleted(live, true, stamp);
      counts.deleted++;
    }
  }
  if (events.length > 0) await publishSaved(deps, events);
}

/**
 * The sync itself, idempotent. A WABA that fails (the upstream down, a write refused) is logged with its
 * cause and the others still run; the lease is given back the moment the run ends, with the run's result
 * recorded for the client's sync status.
 */
export async function runSync(deps: RunSyncDeps, job: SyncJob) {
  const clientId = job.client_id;
  const startedAt = deps.now?.() ?? new Date();
  if (!(await deps.leases.holds(clientId, job.lease_id, startedAt.getTime()))) {
    deps.log.warn('sync skipped: the lease is no longer held', { client_id: clientId });
    return { skipped: true };
  }
  const stamp = startedAt.toISOString();
  const counts: SyncCounts = { updated: 0, created: 0, deleted: 0, status_changed: 0, templates_seen: 0, skipped: 0, pages: 0 };
  const failures: string[] = [];
  let wabasDone = 0;
  let wabasTotal = 0;
  // Progress is shown, not relied on: a failed report never fails the run.
  const reportProgress = () =>
    deps.leases
      .report(clientId, job.lease_id, {
        wabas_done: wabasDone,
        wabas_total: wabasTotal,
        pages: counts.pages,
        templates_seen: counts.templates_seen,
        changes: changesOf(counts),
      })
      .catch((error: unknown) => deps.log.warn('sync progress not recorded', { client_id: clientId, error: (error as Error).message }));
  try {
    const groups = new Map<string, TemplateRecord[]>();
    for (const record of await deps.records.listForClient(clientId)) {
      const key = `${record.waba_id}#${record.meta_template.id}`;
      groups.set(key, [...(groups.get(key) ?? []), record]);
    }
    const wabas = await deps.directory.listClientWabas(clientId);
    wabasTotal = wabas.length;
    await reportProgress();
    for (const wabaId of wabas) {
      try {
        await syncWaba(deps, { clientId, stamp, counts, reportProgress, correlationId: job.request_id }, wabaId, groups);
      } catch (error) {
        failures.push(`WABA ${wabaId}: ${(error as Error).message}`);
        deps.log.error('sync of a WABA failed', { client_id: clientId, waba_id: wabaId, error: (error as Error).message });
      }
      // Done means gone through, whether it succeeded or not (its failure is in the run's result).
      wabasDone++;
      await reportProgress();
    }
  } catch (error) {
    failures.push((error as Error).message);
    deps.log.error('sync failed', { client_id: clientId, error: (error as Error).message });
  } finally {
    const finishedAt = (deps.now?.() ?? new Date()).toISOString();
    const changes = changesOf(counts);
    await deps.leases.release(clientId, job.lease_id, {
      // The run started when its lease was taken (the status showed it running from then on).
      started_at: job.requested_at ?? stamp,
      finished_at: finishedAt,
      result: failures.length === 0 ? 'succeeded' : 'failed',
      templates_seen: counts.templates_seen,
      changes,
      ...(failures.length > 0 && { error: failures.join('; ') }),
    });
  }
  deps.log.info('sync finished', { client_id: clientId, ...counts, failures: failures.length });
  return { ...counts, result: failures.length === 0 ? ('succeeded' as const) : ('failed' as const) };
}

/**
 * A sync job in its dead-letter queue (the worker died or failed on it every time, issue 23): its lease is given
 * back at once (it would otherwise hold the client's syncs off until it expires) and the run is recorded
 * `failed`, saying so, for the client's sync status. Nothing is read from the upstream.
 */
export async function abandonSync(deps: { leases: SyncLeaseStore; log: Log; now?: () => Date }, job: SyncJob) {
  const finishedAt = (deps.now?.() ?? new Date()).toISOString();
  await deps.leases.release(job.client_id, job.lease_id, {
    started_at: job.requested_at ?? finishedAt,
    finished_at: finishedAt,
    result: 'failed',
    templates_seen: 0,
    changes: 0,
    error: 'sync_abandoned: the sync worker gave up on this run after its retries',
  });
  deps.log.warn('sync job abandoned', { client_id: job.client_id });
}
