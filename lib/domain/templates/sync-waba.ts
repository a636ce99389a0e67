import type { Log } from '../shared/log.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import type { ServiceEvent } from '../webhooks/events.ts';
import { publishSaved } from '../webhooks/outbox.ts';
import type { EventPublisher, OutboxStore } from '../webhooks/ports.ts';
import type { TemplateRecords, TemplateUpstream, UpstreamTemplate } from './ports.ts';
import { normalizeComponents } from './rules/changes.ts';
import { templateEvent } from './template-events.ts';
import { oldestRecord } from './template-listing.ts';
import { newRecordId, type MetaTemplate, type TemplateRecord } from './template-record.ts';

/** One WABA's part of a client's sync run (sync.ts): the upstream's templates against the client's records. */
export interface WabaSyncDeps {
  directory: DirectoryStore;
  records: TemplateRecords;
  outbox: OutboxStore;
  publisher: EventPublisher;
  upstream: Pick<TemplateUpstream, 'templatesOf'>;
  log: Log;
}

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
export interface SyncRun {
  clientId: number;
  stamp: string;
  counts: SyncCounts;
  reportProgress: () => Promise<void>;
  correlationId?: string;
}

/** The client's records of one WABA's templates, by `waba#template`, and what the WABA's sync found so far. */
interface WabaSync {
  wabaId: string;
  namespace: string;
  groups: Map<string, TemplateRecord[]>;
  /** The upstream's template ids the WABA's pages held. */
  seen: Set<string>;
  /** The events the WABA's writes saved, published once it is done. */
  events: ServiceEvent[];
}

const sameMeta = (a: MetaTemplate, b: MetaTemplate) => normalizeComponents(a) === normalizeComponents(b);

export const changesOf = (counts: SyncCounts) => counts.updated + counts.created + counts.deleted;

/**
 * One WABA of the client: each upstream template updates the client's records of it (a status change writes
 * its template.status_changed event in the same write), gets an Unassigned placeholder when the client had
 * none, and records whose template is gone upstream are marked deleted. The events are published as soon as
 * the WABA is done; whatever happens later, they are in the outbox already.
 */
export async function syncWaba(deps: WabaSyncDeps, run: SyncRun, wabaId: string, groups: Map<string, TemplateRecord[]>) {
  const { clientId, counts } = run;
  const waba = await deps.directory.getWaba(wabaId);
  const sync: WabaSync = { wabaId, namespace: waba?.namespace ?? '', groups, seen: new Set(), events: [] };
  for await (const templates of deps.upstream.templatesOf(wabaId)) {
    counts.templates_seen += templates.length;
    counts.pages++;
    deps.log.info('sync progress', { client_id: clientId, waba_id: wabaId, pages: counts.pages, templates_so_far: counts.templates_seen });
    await syncPage(deps, run, sync, templates);
    await run.reportProgress();
  }
  await markGoneTemplatesDeleted(deps, run, sync);
  if (sync.events.length > 0) await publishSaved(deps, sync.events);
}

/** One page of the WABA's templates: each one's records brought up to date, or its placeholder registered. */
async function syncPage(deps: WabaSyncDeps, run: SyncRun, sync: WabaSync, templates: UpstreamTemplate[]) {
  const placeholders: TemplateRecord[] = [];
  for (const upstream of templates) {
    const meta = { ...upstream, id: String(upstream.id) } as MetaTemplate;
    sync.seen.add(meta.id);
    const group = sync.groups.get(`${sync.wabaId}#${meta.id}`);
    if (!group) {
      const placeholder = storablePlaceholder(deps, run, sync, meta);
      if (placeholder) placeholders.push(placeholder);
      continue;
    }
    if (!sameMeta(group[0].meta_template, meta)) await reviseFromUpstream(deps, run, sync, meta);
    const back = group.filter((r) => r.deleted);
    if (back.length > 0) await deps.records.markDeleted(back, false, run.stamp);
  }
  // Written a page at a time, in as few writes as the store allows; one a concurrent create registered first
  // has its records already: nothing to add.
  const { refused } = await deps.records.registerEach(placeholders);
  run.counts.created += placeholders.length - refused.length;
}

/** The Unassigned placeholder of a template the client had no record of, unless the table cannot hold it. */
function storablePlaceholder(deps: WabaSyncDeps, run: SyncRun, sync: WabaSync, meta: MetaTemplate): TemplateRecord | undefined {
  const { clientId, stamp } = run;
  const placeholder: TemplateRecord = {
    id: newRecordId(),
    client_id: clientId,
    waba_id: sync.wabaId,
    namespace: sync.namespace,
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
  if (!problem) return placeholder;
  // One template the table cannot hold must not stop the others.
  deps.log.error('sync skipped a template it cannot store', {
    client_id: clientId,
    waba_id: sync.wabaId,
    template_id: meta.id,
    reason: problem.message,
  });
  run.counts.skipped++;
  return undefined;
}

/** The client's records of a template take the upstream's version of it; a status change says so in an event. */
async function reviseFromUpstream(deps: WabaSyncDeps, run: SyncRun, sync: WabaSync, meta: MetaTemplate) {
  // Decided again on the records as they are when written: a notification from the upstream may have
  // brought the same news meanwhile, with its own event.
  const { revised, events: written } = await deps.records.reviseTemplate(
    { wabaId: sync.wabaId, templateId: meta.id, clientId: run.clientId },
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
    run.stamp,
    'sync',
  );
  sync.events.push(...written);
  if (revised) run.counts.updated++;
  run.counts.status_changed += written.length;
}

/** The client's live records of the WABA's templates its pages no longer held are marked deleted. */
async function markGoneTemplatesDeleted(deps: WabaSyncDeps, run: SyncRun, sync: WabaSync) {
  for (const [key, group] of sync.groups) {
    if (!key.startsWith(`${sync.wabaId}#`) || sync.seen.has(group[0].meta_template.id)) continue;
    const live = group.filter((r) => !r.deleted);
    if (live.length > 0) {
      await deps.records.markDeleted(live, true, run.stamp);
      run.counts.deleted++;
    }
  }
}
