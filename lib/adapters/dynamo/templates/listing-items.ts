import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ListingEntry } from '#lib/domain/templates/template-listing.ts';
import type { TemplateRecord } from '#lib/domain/templates/template-record.ts';
import { listedCampaign } from '#lib/domain/templates/template-record.ts';
import { keys, SORT } from '../table.ts';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The listing read model as stored (docs/data-model.md). A (client, template)'s entry lives on its version item
 * (`ASSIGNMENT#<waba>#<template>#<client>` / `VERSION`), so the entry and the version move together: every
 * change of the client's records of the template rewrites both in its transaction. A listed entry carries the
 * keys of the listing indexes: the client's live or deleted partition, and one facet partition per filter the
 * listing serves from an index of its own.
 */
export const FACET_INDEXES = {
  state: 'listing_state',
  category: 'listing_category',
  language: 'listing_language',
  waba: 'listing_waba',
  active: 'listing_active',
  template: 'listing_template',
} as const;
export type Facet = keyof typeof FACET_INDEXES;

export function facetValue(entry: ListingEntry, facet: Facet): string {
  const f = entry.facets;
  switch (facet) {
    case 'state':
      return f.status;
    case 'category':
      return f.category;
    case 'language':
      return f.language;
    case 'waba':
      return f.waba_id;
    case 'active':
      return String(f.active);
    case 'template':
      return f.template_id;
  }
}

const orderOf = (entry: ListingEntry) => keys.listingOrder(entry.facets.name, entry.facets.language, entry.waba_id, entry.template_id);

/**
 * The version item, holding the entry when the records make one, and the ids of the records that are active:
 * enabling or disabling records then moves the entry from this item alone, never reading the other records.
 */
export function entryItem(
  of: { wabaId: string; templateId: string; clientId: number },
  entry: ListingEntry | null,
  version: number,
  activeIds: string[],
): Record<string, unknown> {
  const item: Record<string, unknown> = {
    pk: keys.assignments(of.wabaId, of.templateId, of.clientId),
    sk: SORT.assignmentsVersion,
    entity: 'assignments_version',
    version,
    active_ids: activeIds,
  };
  if (!entry) return item;
  Object.assign(item, {
    entry: entry.entry,
    facets: entry.facets,
    deleted: entry.deleted,
    listing_pk: keys.listing(entry.client_id, entry.deleted),
    listing_sk: orderOf(entry),
  });
  for (const [facet, index] of Object.entries(FACET_INDEXES) as [Facet, string][]) {
    item[`${index}_pk`] = keys.listingFacet(entry.client_id, entry.deleted, facet, facetValue(entry, facet));
  }
  return item;
}

/** The ids of the active records, as the version item keeps them. */
export const activeIdsOf = (records: TemplateRecord[]) => records.filter((r) => r.active).map((r) => r.id);

/** The entry back from its stored item (base table), or null for a version item without one. */
export function entryFromItem(item: Record<string, unknown>): ListingEntry | null {
  if (!item.entry || !item.facets) return null;
  const facets = item.facets as ListingEntry['facets'];
  const entry = item.entry as ListingEntry['entry'];
  return {
    client_id: entry.client_id,
    waba_id: facets.waba_id,
    template_id: facets.template_id,
    deleted: item.deleted === true,
    facets,
    entry,
  };
}

/** Writes the entry and the next version, on condition the version is still the one read. */
export function putEntry(
  tableName: string,
  of: { wabaId: string; templateId: string; clientId: number; version: number },
  entry: ListingEntry | null,
  activeIds: string[],
  fresh = false,
): TransactItem {
  const seen = of.version;
  return {
    Put: {
      TableName: tableName,
      Item: entryItem(of, entry, seen + 1, activeIds),
      ConditionExpression: fresh
        ? 'attribute_not_exists(pk)'
        : seen === 0
          ? 'attribute_not_exists(pk) OR version = :seen'
          : 'version = :seen',
      ...(!fresh && { ExpressionAttributeValues: { ':seen': seen } }),
    },
  };
}

/** How each listing partition's count moves when an entry goes from `before` to `after`. */
export function countChanges(tableName: string, changes: { before: ListingEntry | null; after: ListingEntry | null }[]): TransactItem[] {
  const deltas = new Map<string, { clientId: number; deleted: boolean; delta: number }>();
  const move = (entry: ListingEntry | null, delta: number) => {
    if (!entry) return;
    const key = `${entry.client_id}#${entry.deleted}`;
    const current = deltas.get(key) ?? { clientId: entry.client_id, deleted: entry.deleted, delta: 0 };
    current.delta += delta;
    deltas.set(key, current);
  };
  for (const { before, after } of changes) {
    move(before, -1);
    move(after, +1);
  }
  return [...deltas.values()]
    .filter((d) => d.delta !== 0)
    .map((d) => ({
      Update: {
        TableName: tableName,
        Key: { pk: keys.client(d.clientId), sk: keys.listingCount(d.deleted) },
        UpdateExpression: 'ADD entries :delta SET entity = :entity',
        ExpressionAttributeValues: { ':delta': d.delta, ':entity': 'listing_count' },
      },
    }));
}

/**
 * The records whose assignment keys carry the campaign facets of their (client, template): one per campaign
 * name (the lowest id), so the campaign index holds one key per template and campaign, not one per record.
 */
export function campaignHolders(records: TemplateRecord[]): Set<string> {
  const holders = new Map<string, string>();
  for (const record of records) {
    const campaign = record.isDirectMessage === true ? undefined : listedCampaign(record);
    if (campaign === undefined) continue;
    const held = holders.get(campaign);
    if (held === undefined || record.id < held) holders.set(campaign, record.id);
  }
  return new Set(holders.values());
}

/**
 * The campaign facet of a holder's assignment key (see campaignHolders): the key sits in the campaign
 * partition of its client's listing (the placeholder under `Unassigned`), in the entry's order. A record with a
 * channel and no campaign holds no campaign facet (decisions §11).
 */
export function campaignFacet(record: TemplateRecord, holder: boolean): Record<string, unknown> {
  const campaign = listedCampaign(record);
  if (!holder || record.isDirectMessage === true || campaign === undefined) return {};
  const t = record.meta_template;
  const deleted = record.deleted === true;
  return {
    listing_campaign_pk: keys.listingFacet(record.client_id, deleted, 'campaign', campaign),
    listing_sk: keys.listingOrder(t.name, t.language, record.waba_id, t.id),
  };
}
