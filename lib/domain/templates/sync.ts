import type { Caller } from '../shared/caller.ts';
import { Conflict, UpstreamUnavailable } from '../shared/errors.ts';
import type { Log } from '../shared/log.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import type { EventPublisher, OutboxStore } from '../webhooks/ports.ts';
import type { JobQueue } from '../shared/ports.ts';
import type { SyncLeaseStore } from './ports.ts';
import type { TemplateRecords } from './ports.ts';
import type { TemplateUpstream } from './ports.ts';
import type { TemplateRecord } from './template-record.ts';
import { changesOf, type SyncCounts, type SyncRun, syncWaba } from './sync-waba.ts';
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
  const wabas = { done: 0, total: 0 };
  const reportProgress = progressReporter(deps, job, counts, wabas);
  const failures: string[] = [];
  try {
    await syncWabas(deps, { clientId, stamp, counts, reportProgress, correlationId: job.request_id }, wabas, failures);
  } catch (error) {
    failures.push((error as Error).message);
    deps.log.error('sync failed', { client_id: clientId, error: (error as Error).message });
  } finally {
    await releaseWithResult(deps, job, stamp, counts, failures);
  }
  deps.log.info('sync finished', { client_id: clientId, ...counts, failures: failures.length });
  return { ...counts, result: failures.length === 0 ? ('succeeded' as const) : ('failed' as const) };
}

/** Reports the run's progress on its lease. Progress is shown, not relied on: a failed report never fails the run. */
function progressReporter(deps: RunSyncDeps, job: SyncJob, counts: SyncCounts, wabas: { done: number; total: number }) {
  return () =>
    deps.leases
      .report(job.client_id, job.lease_id, {
        wabas_done: wabas.done,
        wabas_total: wabas.total,
        pages: counts.pages,
        templates_seen: counts.templates_seen,
        changes: changesOf(counts),
      })
      .catch((error: unknown) =>
        deps.log.warn('sync progress not recorded', { client_id: job.client_id, error: (error as Error).message }),
      );
}

/** Each of the client's WABAs in turn; one that fails is counted among the failures and the others still run. */
async function syncWabas(deps: RunSyncDeps, run: SyncRun, wabas: { done: number; total: number }, failures: string[]) {
  const groups = new Map<string, TemplateRecord[]>();
  for (const record of await deps.records.listForClient(run.clientId)) {
    const key = `${record.waba_id}#${record.meta_template.id}`;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  const wabaIds = await deps.directory.listClientWabas(run.clientId);
  wabas.total = wabaIds.length;
  await run.reportProgress();
  for (const wabaId of wabaIds) {
    try {
      await syncWaba(deps, run, wabaId, groups);
    } catch (error) {
      failures.push(`WABA ${wabaId}: ${(error as Error).message}`);
      deps.log.error('sync of a WABA failed', { client_id: run.clientId, waba_id: wabaId, error: (error as Error).message });
    }
    // Done means gone through, whether it succeeded or not (its failure is in the run's result).
    wabas.done++;
    await run.reportProgress();
  }
}

/** Gives the lease back with the run's result, for the client's sync status. */
async function releaseWithResult(deps: RunSyncDeps, job: SyncJob, stamp: string, counts: SyncCounts, failures: string[]) {
  const finishedAt = (deps.now?.() ?? new Date()).toISOString();
  await deps.leases.release(job.client_id, job.lease_id, {
    // The run started when its lease was taken (the status showed it running from then on).
    started_at: job.requested_at ?? stamp,
    finished_at: finishedAt,
    result: failures.length === 0 ? 'succeeded' : 'failed',
    templates_seen: counts.templates_seen,
    changes: changesOf(counts),
    ...(failures.length > 0 && { error: failures.join('; ') }),
  });
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
