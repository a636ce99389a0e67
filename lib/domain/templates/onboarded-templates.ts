import type { OnboardedTemplates } from '../shared/ports.ts';
import { type SyncCounts, syncWaba, type WabaSyncDeps } from './sync-waba.ts';
import type { TemplateRecord } from './template-record.ts';

/**
 * An onboarded WABA's templates read into its client's records (issue 55): the template sync's own part for one
 * WABA (./sync-waba.ts), so an onboarding and a sync write the same records, placeholders and events; run again, it
 * changes nothing that did not change.
 */
export function onboardedTemplates(deps: WabaSyncDeps & { now?: () => Date }): OnboardedTemplates {
  return {
    async syncWaba(clientId, wabaId) {
      const groups = new Map<string, TemplateRecord[]>();
      for (const record of await deps.records.listForClient(clientId)) {
        if (record.waba_id !== wabaId) continue;
        const key = `${record.waba_id}#${record.meta_template.id}`;
        groups.set(key, [...(groups.get(key) ?? []), record]);
      }
      const counts: SyncCounts = { updated: 0, created: 0, deleted: 0, status_changed: 0, templates_seen: 0, skipped: 0, pages: 0 };
      const run = { clientId, stamp: (deps.now?.() ?? new Date()).toISOString(), counts, reportProgress: async () => {} };
      await syncWaba(deps, run, wabaId, groups);
      return counts.templates_seen;
    },
  };
}
