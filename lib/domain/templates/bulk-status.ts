import type { Caller } from '../shared/caller.ts';
import { Conflict, type ErrorDetail, InvalidRequest } from '../shared/errors.ts';
import { type ActiveWrite, AssignmentConflict, type Deadline, type TemplateRecords, type TemplateAssignments } from './ports.ts';
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
  | 'conflicting_action'
  /** Not reached before the request's time ran short (decisions §19): nothing written; send it again. */
  | 'not_processed';

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
/** Records read and written together, before the deadline is looked at again. */
const BULK_PART = 400;
/**
 * No part is begun with this little time left (decisions §19): a part's reads and writes take well under a
 * second; the store keeps the same margin before each of its writes.
 */
export const BULK_SAFETY_MS = 3_000;
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

/**
 * PATCH /v1/templates/status. Each record is read once and written on condition of what was read; the store
 * reads one more item per (client, template). With a `deadline`, the request answers in time whatever the
 * table's speed: records it could not reach are `not_processed`, unwritten.
 */
export async function changeTemplateStatus(
  { records, assignments }: { records: TemplateRecords; assignments: TemplateAssignments },
  caller: Caller,
  input: { action?: string; templates?: BulkItem[] },
  options: { now?: () => string; deadline?: Deadline } = {},
) {
  const now = options.now ?? (() => new Date().toISOString());
  const plan = planBulkStatus(input);
  const toProcess = plan.filter((p) => p.plan === 'process');
  // A part at a time, each read and written before the next is begun, so the deadline is looked at between
  // parts: a part not begun in time is `not_processed` (read not at all, written not at all).
  const outcomeOf = new Map<string, ActiveWrite>();
  const refused = new Map<string, Reason>();
  for (let start = 0; start < toProcess.length; start += BULK_PART) {
    const part = toProcess.slice(start, start + BULK_PART);
    if (options.deadline && options.deadline.remainingMs() <= BULK_SAFETY_MS) {
      for (const p of part) outcomeOf.set(p.id, 'not_processed');
      continue;
    }
    const read = await records.getMany(part.map((p) => p.id));
    const flips: { record: TemplateRecord; to: boolean }[] = [];
    for (const item of part) {
      const record = read.get(item.id);
      const reason: Reason | undefined = !record
        ? 'not_found'
        : record.client_id !== caller.clientId && !caller.isBsp
          ? 'forbidden'
          : refusal(record, item.action);
      if (reason) refused.set(item.id, reason);
      else flips.push({ record: record!, to: item.action === 'enable' });
    }
    // The writes, each conditional on the value read; the store groups them per template.
    const outcomes = await assignments.setActive(flips, now(), options.deadline).catch((error: unknown) => {
      // Other writers kept winning on one template: nothing of it was written; the caller may retry.
      if (error instanceof AssignmentConflict) throw new Conflict('Templates changed while this request was applied; retry it');
      throw error;
    });
    for (const [i, flip] of flips.entries()) outcomeOf.set(flip.record.id, outcomes[i]);
  }
  const results = plan.map(({ id, action, plan: planned }): BulkItemResult => {
    const base = { id, action };
    if (planned !== 'process') return { ...base, success: false, skipped: true, reason: planned };
    const reason = refused.get(id);
    if (reason) return { ...base, success: false, skipped: false, reason };
    const to = action === 'enable';
    const outcome = outcomeOf.get(id);
    if (outcome === 'written') return { ...base, success: true, skipped: false, previous_active: !to, current_active: to };
    if (outcome === 'not_processed') return { ...base, success: false, skipped: false, reason: 'not_processed' };
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
