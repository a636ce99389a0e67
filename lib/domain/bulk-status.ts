import type { Caller } from './caller.ts';
import { Conflict, type ErrorDetail, InvalidRequest } from './errors.ts';
import { AssignmentConflict, type TemplateRecordStore } from './ports.ts';
import type { TemplateRecord } from './template-record.ts';

/** PATCH /v1/templates/status (spec §2, decisions §3). */
export type Action = 'enable' | 'disable';
export type Reason =
  | 'not_found'
  | 'forbidden'
  | 'already_enabled'
  | 'already_disabled'
  | 'channel_unassigned'
  | 'campaign_unassigned'
  | 'template_not_approved'
  | 'duplicate_request'
  | 'conflicting_action';

export interface BulkItemResult {
  id: string;
  action: Action;
  success: boolean;
  skipped: boolean;
  reason?: Reason;
  previous_active?: boolean;
  current_active?: boolean;
}

export const MAX_BULK_ITEMS = 1000;
const ACTIONS = ['enable', 'disable'];

export type BulkItem = string | { id: string; action?: string };

export interface PlannedItem {
  id: string;
  action: Action;
  /** What happens to this occurrence: processed, or skipped for a reason known before any read. */
  plan: 'process' | 'duplicate_request' | 'conflicting_action';
}

/**
 * Resolves each item's action and applies the duplicate and conflict rules, before anything is read:
 * an id with two different actions is never processed; a repeated id with one action is processed once.
 * Fails the whole request (400) for an empty list, too many items, an invalid action or an item without one.
 */
export function planBulkStatus(input: { action?: string; templates?: BulkItem[] }): PlannedItem[] {
  const problems: ErrorDetail[] = [];
  if (input.action !== undefined && !ACTIONS.includes(input.action)) {
    problems.push({ path: 'action', message: 'must be enable or disable' });
  }
  const templates = input.templates ?? [];
  if (templates.length === 0)
    throw new InvalidRequest('templates must not be empty', [{ path: 'templates', message: 'must not be empty' }]);
  if (templates.length > MAX_BULK_ITEMS) {
    throw new InvalidRequest(`At most ${MAX_BULK_ITEMS} templates per request`, [
      { path: 'templates', message: `at most ${MAX_BULK_ITEMS} items` },
    ]);
  }
  const resolved = templates.map((item, index) => {
    const id = typeof item === 'string' ? item : item.id;
    const own = typeof item === 'string' ? undefined : item.action;
    if (own !== undefined && !ACTIONS.includes(own))
      problems.push({ path: `templates[${index}].action`, message: 'must be enable or disable' });
    const action = own ?? input.action;
    if (action === undefined) problems.push({ path: `templates[${index}]`, message: 'has no action and no global action is given' });
    return { id, action: action as Action };
  });
  if (problems.length > 0) throw new InvalidRequest('Invalid bulk status request', problems);
  const actionsById = new Map<string, Set<Action>>();
  for (const { id, action } of resolved) {
    if (!actionsById.has(id)) actionsById.set(id, new Set());
    actionsById.get(id)!.add(action);
  }
  const seen = new Set<string>();
  return resolved.map(({ id, action }) => {
    if (actionsById.get(id)!.size > 1) return { id, action, plan: 'conflicting_action' as const };
    if (seen.has(id)) return { id, action, plan: 'duplicate_request' as const };
    seen.add(id);
    return { id, action, plan: 'process' as const };
  });
}

/** Why an action cannot be applied to a record, in the decisions' order; undefined when it can. */
export function refusal(record: TemplateRecord, action: Action): Reason | undefined {
  if (action === 'disable') return record.active ? undefined : 'already_disabled';
  if (record.active) return 'already_enabled';
  if (record.meta_template.status !== 'APPROVED') return 'template_not_approved';
  if (!record.channel) return 'channel_unassigned';
  if (!record.campaign) return 'campaign_unassigned';
  return undefined;
}

export function summarize(results: BulkItemResult[]) {
  const succeeded = results.filter((r) => r.success).length;
  const skipped = results.filter((r) => r.skipped).length;
  return { total: results.length, succeeded, skipped, failed: results.length - succeeded - skipped };
}

export async function changeTemplateStatus(
  records: TemplateRecordStore,
  caller: Caller,
  input: { action?: string; templates?: BulkItem[] },
  now = () => new Date().toISOString(),
) {
  const plan = planBulkStatus(input);
  const found = await records.getMany(plan.filter((p) => p.plan === 'process').map((p) => p.id));
  const decided = plan.map((item) => {
    const record = item.plan === 'process' ? found.get(item.id) : undefined;
    const reason: Reason | undefined =
      item.plan !== 'process'
        ? item.plan
        : !record
          ? 'not_found'
          : record.client_id !== caller.clientId && !caller.isBsp
            ? 'forbidden'
            : refusal(record, item.action);
    return { item, record, reason };
  });
  // The writes, each conditional on the value read; the store groups them per template.
  const flips = decided.filter((d) => d.reason === undefined).map((d) => ({ record: d.record!, to: d.item.action === 'enable' }));
  const outcomes = await records.setActive(flips, now()).catch((error: unknown) => {
    // Other writers kept winning on one template: nothing of it was written; the caller may retry.
    if (error instanceof AssignmentConflict) throw new Conflict('Templates changed while this request was applied; retry it');
    throw error;
  });
  let next = 0;
  const results = decided.map(({ item, reason }): BulkItemResult => {
    const base = { id: item.id, action: item.action };
    if (reason) return { ...base, success: false, skipped: item.plan !== 'process', reason };
    const to = item.action === 'enable';
    const outcome = outcomes[next++];
    if (outcome === 'written') return { ...base, success: true, skipped: false, previous_active: !to, current_active: to };
    // Someone else flipped it between our read and our write: it is already in the wanted state.
    return {
      ...base,
      success: false,
      skipped: false,
      reason: outcome === 'missing' ? 'not_found' : to ? 'already_enabled' : 'already_disabled',
    };
  });
  return { results, summary: summarize(results) };
}
