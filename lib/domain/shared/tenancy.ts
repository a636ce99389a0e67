import type { Caller } from './caller.ts';
import { Forbidden, InvalidRequest, NotFound } from './errors.ts';
import type { ChannelRecord } from './directory.ts';

/**
 * Tenancy rules in one place (spec: Authentication; decisions §1). Every use case that takes a client_id
 * goes through here, so no endpoint can forget the BSP_CN check.
 */
export const CROSS_CLIENT_MESSAGE = 'BSP_CN permission required for cross-client access';
export const CLIENT_ID_REQUIRED_MESSAGE = 'client_id is required';
export const AGENT_WITHOUT_CAMPAIGNS_MESSAGE = 'agent without campaigns';
export const TEMPLATE_NOT_FOUND = 'Template not found';
export const DID_OUTSIDE_HIERARCHY_MESSAGE = 'DID is outside the WABA hierarchy of the client';

/** The client a request acts for: the token's own, or another one when the token holds BSP_CN. */
export function actingClient(caller: Caller, requested?: number): number {
  if (requested === undefined || requested === caller.clientId) return caller.clientId;
  if (!caller.isBsp) throw new Forbidden(CROSS_CLIENT_MESSAGE);
  return requested;
}

/** The client of a request about one client's data: BSP_CN must name it; an agent acts for its own. */
export function namedClient(caller: Caller, requested: number | undefined): number {
  if (caller.isBsp && requested === undefined) throw new InvalidRequest(CLIENT_ID_REQUIRED_MESSAGE);
  return actingClient(caller, requested);
}

/** The template listing's own rules: the client is named as for any client's data; an agent needs campaigns. */
export function templateListingClient(caller: Caller, requested: number | undefined): number {
  const client = namedClient(caller, requested);
  if (!caller.isBsp && caller.campaigns.length === 0) throw new InvalidRequest(AGENT_WITHOUT_CAMPAIGNS_MESSAGE);
  return client;
}

export interface HierarchyLookup {
  channelOfClient(clientId: number, did: string): Promise<ChannelRecord | null>;
}

/**
 * A DID belongs to the acting client's WABA hierarchy when it is the wa_id of a channel record whose WABA
 * is one of the client's (decisions §1). Unknown DIDs get the same 403 as foreign ones, so the answer does
 * not reveal which DIDs exist.
 */
export async function channelInHierarchy(lookup: HierarchyLookup, clientId: number, did: string): Promise<ChannelRecord> {
  const channel = await lookup.channelOfClient(clientId, did);
  if (!channel || channel.deleted) {
    throw new Forbidden(DID_OUTSIDE_HIERARCHY_MESSAGE);
  }
  return channel;
}

/** What a request's path names that must be the caller's own: a DID of its hierarchy, a template record. */
export interface NamedInPath {
  did?: string;
  recordId?: string;
}

export interface OwnershipLookup {
  directory: HierarchyLookup;
  records: { get(id: string): Promise<{ client_id: number } | null> };
}

/**
 * An agent may only name its own client's DIDs and records (decisions §1), and learns that before anything of
 * its request is judged: a body checked first would answer another tenant's DID with validation errors (a
 * dry run with a 200). BSP_CN may name any; its use case still checks the client it acts for.
 */
export async function checkNamedAreOwn(lookup: OwnershipLookup, caller: Caller, named: NamedInPath): Promise<void> {
  if (caller.isBsp) return;
  if (named.did !== undefined) await channelInHierarchy(lookup.directory, caller.clientId, named.did);
  if (named.recordId !== undefined) {
    const record = await lookup.records.get(named.recordId);
    if (!record || record.client_id !== caller.clientId) throw new NotFound(TEMPLATE_NOT_FOUND);
  }
}
