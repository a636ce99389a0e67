import type { Caller } from '../shared/caller.ts';
import { Conflict, type ErrorDetail, Forbidden, InvalidRequest, NotFound } from '../shared/errors.ts';
import { AssignmentConflict, ChangeTooLarge, type AssignmentChange, type TemplateRecords, type TemplateAssignments } from './ports.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import { channelCampaignGroups, oldestRecord } from './template-listing.ts';
import { isPlaceholder, newRecordId, type AssignedCampaign, type AssignedChannel, type TemplateRecord } from './template-record.ts';
import { actingClient, TEMPLATE_NOT_FOUND } from '../shared/tenancy.ts';

/**
 * Channel/campaign assignments of a template (spec §3, decisions §3). A client holds either assigned
 * records (one per pair) or its Unassigned placeholder; every change is one transaction.
 */
export interface AssignmentDeps {
  directory: DirectoryStore;
  records: TemplateRecords;
  assignments: TemplateAssignments;
  now?: () => string;
}

export interface Pair {
  channel_id: number;
  campaign_id: number;
}

/** Pairs per request (decisions §3): small enough that every change of one request is one atomic write. */
export const MAX_PAIRS = 24;

const pairKey = (p: Pair) => `${p.channel_id}#${p.campaign_id}`;
const recordPair = (r: TemplateRecord) => (r.channel && r.campaign ? `${r.channel.channel_id}#${r.campaign.campaign_id}` : undefined);

interface Target {
  original: TemplateRecord;
  clientId: number;
  siblings: TemplateRecord[];
  /** The version the siblings were read at: the change is written only if it is still the current one. */
  of: AssignmentChange['of'];
}

/**
 * The record named in the path and the client the request acts for. A record of another client is
 * invisible (404) without BSP_CN; with BSP_CN the acting client must hold the template's WABA.
 */
async function target(deps: AssignmentDeps, caller: Caller, recordId: string, requestedClient?: number): Promise<Target> {
  const clientId = actingClient(caller, requestedClient);
  const original = await deps.records.get(recordId);
  if (!original || (original.client_id !== caller.clientId && !caller.isBsp)) throw new NotFound(TEMPLATE_NOT_FOUND);
  if (original.client_id !== clientId && !(await deps.directory.clientHasWaba(clientId, original.waba_id))) {
    throw new Forbidden(`Client ${clientId} does not hold WABA ${original.waba_id}`);
  }
  const { records: siblings, version } = await deps.assignments.readAssignments(original.waba_id, original.meta_template.id, clientId);
  return { original, clientId, siblings, of: { wabaId: original.waba_id, templateId: original.meta_template.id, clientId, version } };
}

/** Checks each pair against the directory: the channel and the campaign must be the acting client's. */
export async function resolvePairs(deps: Pick<AssignmentDeps, 'directory'>, clientId: number, wabaId: string, pairs: Pair[]) {
  if (pairs.length > MAX_PAIRS) {
    throw new InvalidRequest(`At most ${MAX_PAIRS} channel/campaign pairs per request`, [
      { path: 'channel_campaigns', message: `at most ${MAX_PAIRS} pairs` },
    ]);
  }
  const unique = [...new Map(pairs.map((p) => [pairKey(p), p])).values()];
  const problems: ErrorDetail[] = [];
  const refused: Pair[] = [];
  const resolved: { pair: Pair; channel: AssignedChannel; campaign: AssignedCampaign }[] = [];
  // Every pair's channel and campaign in one read.
  const found = await deps.directory.getAssignables(
    clientId,
    unique.map((p) => p.channel_id),
    unique.map((p) => p.campaign_id),
  );
  for (const pair of unique) {
    const index = pairs.findIndex((p) => pairKey(p) === pairKey(pair));
    const channel = found.channels.get(pair.channel_id);
    const campaign = found.campaigns.get(pair.campaign_id);
    const path = `channel_campaigns[${index}]`;
    const before = problems.length;
    if (!channel)
      problems.push({ path: `${path}.channel_id`, message: `channel ${pair.channel_id} is not a channel of client ${clientId}` });
    else if (channel.waba_id !== wabaId)
      problems.push({ path: `${path}.channel_id`, message: `channel ${pair.channel_id} is not on WABA ${wabaId}` });
    if (!campaign)
      problems.push({ path: `${path}.campaign_id`, message: `campaign ${pair.campaign_id} is not a campaign of client ${clientId}` });
    if (problems.length > before) refused.push(pair);
    else {
      resolved.push({
        pair,
        channel: {
          channel_id: channel!.channel_id,
          name: channel!.name ?? '',
          did: channel!.did,
          type: channel!.type ?? 'MSGCHAN',
          waba_id: channel!.waba_id,
        },
        campaign: { campaign_id: campaign!.campaign_id, campaign_name: campaign!.campaign_name },
      });
    }
  }
  if (refused.length > 0) {
    throw new InvalidRequest(
      `Unknown channel/campaign pair: ${refused.map((p) => `{channel_id: ${p.channel_id}, campaign_id: ${p.campaign_id}}`).join(', ')}`,
      problems,
    );
  }
  return resolved;
}

/** A sibling: the original record with only the pair (and, acting for a client sharing the WABA, the client) changed. */
function sibling(original: TemplateRecord, clientId: number, channel?: AssignedChannel, campaign?: AssignedCampaign): TemplateRecord {
  const { channel: _c, campaign: _p, ...rest } = original;
  return { ...structuredClone(rest), id: newRecordId(), client_id: clientId, ...(channel && { channel }), ...(campaign && { campaign }) };
}

function asPlaceholder(record: TemplateRecord, now: string): TemplateRecord {
  const { channel: _c, campaign: _p, ...rest } = record;
  // A placeholder can send nothing, so it is never left active.
  return { ...rest, active: false, updated_at: now };
}

const emptyChange = (of: AssignmentChange['of'], current: TemplateRecord[]): AssignmentChange => ({
  of,
  current,
  create: [],
  update: [],
  remove: [],
});

async function apply(deps: AssignmentDeps, change: AssignmentChange) {
  try {
    await deps.assignments.applyAssignments(change);
  } catch (error) {
    if (error instanceof AssignmentConflict) throw new Conflict(error.message);
    if (error instanceof ChangeTooLarge) {
      throw new InvalidRequest('Too many assignment changes for one request; split it into smaller ones', [
        { path: 'channel_campaigns', message: 'too many changes at once' },
      ]);
    }
    throw error;
  }
}

/** POST: adds pairs. A pair the client holds creates nothing and returns its record's id. */
export async function addAssignments(
  deps: AssignmentDeps,
  caller: Caller,
  recordId: string,
  input: { client_id?: number; channel_campaigns?: Pair[] },
) {
  const pairs = input.channel_campaigns ?? [];
  if (pairs.length === 0)
    throw new InvalidRequest('channel_campaigns must name at least one pair', [{ path: 'channel_campaigns', message: 'is required' }]);
  const { original, clientId, siblings, of } = await target(deps, caller, recordId, input.client_id);
  const resolved = await resolvePairs(deps, clientId, original.waba_id, pairs);
  const now = deps.now?.() ?? new Date().toISOString();
  const held = new Map(siblings.filter((r) => !isPlaceholder(r)).map((r) => [recordPair(r)!, r]));
  const placeholder = siblings.find(isPlaceholder);
  const change = emptyChange(of, siblings);
  const ids: string[] = [];
  for (const { pair, channel, campaign } of resolved) {
    const existing = held.get(pairKey(pair));
    if (existing) {
      ids.push(existing.id);
    } else if (placeholder && change.update.length === 0) {
      // The placeholder becomes the first new assignment and keeps its id.
      change.update.push({ before: placeholder, after: { ...placeholder, channel, campaign, updated_at: now } });
      ids.push(placeholder.id);
    } else {
      const record = sibling(original, clientId, channel, campaign);
      change.create.push(record);
      ids.push(record.id);
    }
  }
  await apply(deps, change);
  return { ids, success: true as const };
}

/**
 * PUT: the client's pairs become exactly the given ones. Held pairs keep their record; new pairs become
 * siblings (the placeholder first); missing pairs are removed; none left means the placeholder.
 */
export async function replaceAssignments(
  deps: AssignmentDeps,
  caller: Caller,
  recordId: string,
  input: { client_id?: number; channel_campaigns?: Pair[] },
) {
  const { original, clientId, siblings, of } = await target(deps, caller, recordId, input.client_id);
  const resolved = await resolvePairs(deps, clientId, original.waba_id, input.channel_campaigns ?? []);
  const now = deps.now?.() ?? new Date().toISOString();
  const wanted = new Set(resolved.map((r) => pairKey(r.pair)));
  const assigned = siblings.filter((r) => !isPlaceholder(r));
  const placeholders = siblings.filter(isPlaceholder);
  const heldKeys = new Set(assigned.map((r) => recordPair(r)!));
  const change = emptyChange(of, siblings);
  const leaving = assigned.filter((r) => !wanted.has(recordPair(r)!));
  const arriving = resolved.filter((r) => !heldKeys.has(pairKey(r.pair)));
  let reusable: TemplateRecord | undefined = placeholders[0];
  for (const { channel, campaign } of arriving) {
    if (reusable) {
      change.update.push({ before: reusable, after: { ...reusable, channel, campaign, updated_at: now } });
      reusable = undefined;
    } else {
      change.create.push(sibling(original, clientId, channel, campaign));
    }
  }
  if (resolved.length === 0) {
    finishWithPlaceholder(change, leaving, placeholders, original, clientId, now);
  } else {
    change.remove.push(...leaving);
  }
  await apply(deps, change);
  return { ids: null, success: true as const };
}

/** When a client loses its last pair: keep (or make) exactly one placeholder, for this client only. */
function finishWithPlaceholder(
  change: AssignmentChange,
  leaving: TemplateRecord[],
  placeholders: TemplateRecord[],
  original: TemplateRecord,
  clientId: number,
  now: string,
) {
  if (placeholders.length > 0) {
    change.remove.push(...leaving);
    return;
  }
  if (leaving.length === 0) {
    change.create.push(asPlaceholder(sibling(original, clientId), now));
    return;
  }
  const keep = oldestRecord(leaving);
  change.update.push({ before: keep, after: asPlaceholder(keep, now) });
  change.remove.push(...leaving.filter((r) => r.id !== keep.id));
}

/** DELETE: one pair (channel_id and campaign_id) or all of the client's pairs; the last one leaves the placeholder. */
export async function removeAssignments(
  deps: AssignmentDeps,
  caller: Caller,
  recordId: string,
  input: { client_id?: number; channel_id?: number; campaign_id?: number },
) {
  if ((input.channel_id === undefined) !== (input.campaign_id === undefined)) {
    throw new InvalidRequest('channel_id and campaign_id go together', [
      { path: input.channel_id === undefined ? 'channel_id' : 'campaign_id', message: 'is required with the other' },
    ]);
  }
  const { original, clientId, siblings, of } = await target(deps, caller, recordId, input.client_id);
  const now = deps.now?.() ?? new Date().toISOString();
  const assigned = siblings.filter((r) => !isPlaceholder(r));
  const placeholders = siblings.filter(isPlaceholder);
  let leaving = assigned;
  if (input.channel_id !== undefined) {
    const key = pairKey({ channel_id: input.channel_id, campaign_id: input.campaign_id! });
    leaving = assigned.filter((r) => recordPair(r) === key);
    if (leaving.length === 0)
      throw new NotFound(
        `Client ${clientId} has no assignment {channel_id: ${input.channel_id}, campaign_id: ${input.campaign_id}} for this template`,
      );
  }
  const change = emptyChange(of, siblings);
  if (leaving.length === assigned.length) finishWithPlaceholder(change, leaving, placeholders, original, clientId, now);
  else change.remove.push(...leaving);
  await apply(deps, change);
  return { ids: null, success: true as const };
}

/** GET grouped: the acting client's campaign groups of the template, the placeholder left out. */
export async function groupedAssignments(deps: Pick<AssignmentDeps, 'records'>, caller: Caller, recordId: string) {
  const original = await deps.records.get(recordId);
  if (!original || (original.client_id !== caller.clientId && !caller.isBsp)) throw new NotFound(TEMPLATE_NOT_FOUND);
  const clientId = caller.isBsp ? original.client_id : caller.clientId;
  const siblings = await deps.records.listForTemplate(original.waba_id, original.meta_template.id, clientId);
  return channelCampaignGroups(siblings);
}
