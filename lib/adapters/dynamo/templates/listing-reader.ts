import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  isUnfiltered,
  type ListingCriteria,
  type ListingEntry,
  type ListingFacets,
  matchesListing,
} from '#lib/domain/templates/template-listing.ts';
import type { MetaTemplate } from '#lib/domain/templates/template-record.ts';
import type { ServiceTable } from '../client.ts';
import { batchGet, QUERY_LIMIT, queryAll } from '../queries.ts';
import { entryFromItem, FACET_INDEXES, type Facet } from './listing-items.ts';
import { keys, SORT } from '../table.ts';

/**
 * GET /v1/templates from the listing read model (docs/data-model.md, "The listing"). Reads grow with the page
 * and with the matches of the narrowest filter, never with the client's records:
 * - no filter: the partition's count (one item) and the page's keys, then the page's entries by key;
 * - a filter with an index of its own (template id, name, WABA, language, category, state, active, campaign):
 *   that index's matches (compact: the facets only), the other filters applied to them, then the page's entries;
 * - only filters without an index (search, quality, channel ids): the partition's compact entries.
 */
export async function readListingPage(
  table: ServiceTable,
  clientId: number,
  criteria: ListingCriteria,
  page: { offset: number; size: number },
): Promise<{ entries: ListingEntry[]; total: number }> {
  const partition = keys.listing(clientId, criteria.deleted);
  if (isUnfiltered(criteria)) {
    const keysUpTo = (wanted: number) =>
      firstKeys(
        table,
        { IndexName: 'listing', KeyConditionExpression: 'listing_pk = :p', ExpressionAttributeValues: { ':p': partition } },
        wanted,
      );
    // The first page reads its keys beside the count; a later one only when the count says it holds any, so a
    // page past the end reads one item, however many the client has.
    if (page.offset === 0) {
      const [total, pageKeys] = await Promise.all([countOf(table, clientId, criteria.deleted), keysUpTo(page.size)]);
      return { entries: await entriesByKey(table, pageKeys), total };
    }
    const total = await countOf(table, clientId, criteria.deleted);
    if (page.offset >= total) return { entries: [], total };
    const pageKeys = await keysUpTo(page.offset + page.size);
    return { entries: await entriesByKey(table, pageKeys.slice(page.offset)), total };
  }
  const candidates = await compactCandidates(table, clientId, criteria);
  const matches = candidates.filter((c) => matchesListing(c.facets, criteria));
  const pageKeys = matches.slice(page.offset, page.offset + page.size).map((c) => c.pk);
  return { entries: await entriesByKey(table, pageKeys), total: matches.length };
}

interface Compact {
  pk: string;
  order: string;
  facets: ListingFacets;
}

/** The candidates of the narrowest index the criteria allow, in listing order. */
async function compactCandidates(table: ServiceTable, clientId: number, c: ListingCriteria): Promise<Compact[]> {
  const facet = (name: Facet, values: string[]) =>
    facetMatches(
      table,
      FACET_INDEXES[name],
      values.map((value) => keys.listingFacet(clientId, c.deleted, name, value)),
    );
  if (c.templateId !== undefined) return facet('template', [c.templateId]);
  if (c.name !== undefined) {
    return compactOf(
      await queryAll(table, {
        IndexName: 'listing',
        KeyConditionExpression: 'listing_pk = :p AND begins_with(listing_sk, :n)',
        ExpressionAttributeValues: { ':p': keys.listing(clientId, c.deleted), ':n': `${c.name}#` },
      }),
    );
  }
  if (c.wabaId !== undefined) return facet('waba', [c.wabaId]);
  if (c.language !== undefined) return facet('language', [c.language]);
  if (c.categories) return facet('category', c.categories);
  if (c.states) return facet('state', c.states);
  if (c.active !== undefined) return facet('active', [String(c.active)]);
  if (c.campaignName !== undefined) return campaignMatches(table, clientId, c);
  return compactOf(
    await queryAll(table, {
      IndexName: 'listing',
      KeyConditionExpression: 'listing_pk = :p',
      ExpressionAttributeValues: { ':p': keys.listing(clientId, c.deleted) },
    }),
  );
}

/** Every entry in any of these facet partitions (several values of one filter), merged in listing order. */
async function facetMatches(table: ServiceTable, index: string, partitions: string[]): Promise<Compact[]> {
  const attribute = `${index}_pk`;
  const parts = await Promise.all(
    [...new Set(partitions)].map((partition) =>
      queryAll(table, { IndexName: index, KeyConditionExpression: `${attribute} = :p`, ExpressionAttributeValues: { ':p': partition } }),
    ),
  );
  const merged = compactOf(parts.flat());
  return parts.length > 1 ? merged.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0)) : merged;
}

/**
 * The campaign index holds assignment keys (a template has one per record): their distinct entries are the
 * matches. Their facets are read only when other filters must be applied to them.
 */
async function campaignMatches(table: ServiceTable, clientId: number, c: ListingCriteria): Promise<Compact[]> {
  const found = await queryAll(table, {
    IndexName: 'listing_campaign',
    KeyConditionExpression: 'listing_campaign_pk = :p',
    ExpressionAttributeValues: { ':p': keys.listingFacet(clientId, c.deleted, 'campaign', c.campaignName!) },
  });
  const distinct = [...new Map(found.map((item) => [String(item.pk), String(item.listing_sk)])).entries()];
  const others = Object.keys(c).some((key) => key !== 'deleted' && key !== 'campaignName');
  if (!others) {
    // Only the campaign: a facet that meets it, so the other filters are never asked.
    const facets = { campaigns: [c.campaignName!] } as ListingFacets;
    return distinct.map(([pk, order]) => ({ pk, order, facets }));
  }
  const items = await batchGet(
    table,
    distinct.map(([pk]) => ({ pk, sk: SORT.assignmentsVersion })),
  );
  const order = new Map(distinct);
  return compactOf(items.map((item) => ({ ...item, listing_sk: order.get(String(item.pk)) })))
    .filter((entry) => entry.facets !== undefined)
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
}

const compactOf = (items: Record<string, unknown>[]): Compact[] =>
  items
    .filter((item) => item.facets !== undefined)
    .map((item) => ({ pk: String(item.pk), order: String(item.listing_sk), facets: item.facets as ListingFacets }));

/** The first `count` keys of an index partition, in order: a page's keys without reading its entries. */
async function firstKeys(table: ServiceTable, input: Omit<QueryCommandInput, 'TableName'>, count: number): Promise<string[]> {
  const found: string[] = [];
  let start: Record<string, unknown> | undefined;
  while (found.length < count) {
    const page = await table.client.send(
      new QueryCommand({
        ...input,
        TableName: table.name,
        Limit: Math.min(count - found.length, QUERY_LIMIT),
        ProjectionExpression: 'pk',
        ExclusiveStartKey: start,
      }),
    );
    found.push(...(page.Items ?? []).map((item) => String(item.pk)));
    start = page.LastEvaluatedKey;
    if (!start) break;
  }
  return found;
}

async function countOf(table: ServiceTable, clientId: number, deleted: boolean): Promise<number> {
  const result = await table.client.send(
    new GetCommand({ TableName: table.name, Key: { pk: keys.client(clientId), sk: keys.listingCount(deleted) } }),
  );
  return Math.max(0, Number(result.Item?.entries ?? 0));
}

/** The entries stored under these version keys, in the keys' order. */
async function entriesByKey(table: ServiceTable, pks: string[]): Promise<ListingEntry[]> {
  if (pks.length === 0) return [];
  const items = await batchGet(
    table,
    pks.map((pk) => ({ pk, sk: SORT.assignmentsVersion })),
  );
  const byKey = new Map(items.map((item) => [String(item.pk), entryFromItem(item)]));
  return pks.map((pk) => byKey.get(pk)).filter((e): e is ListingEntry => e !== null && e !== undefined);
}

/** A client's live entry of one WABA template by name and language: one key from the listing, then the entry. */
export async function readTemplateEntry(table: ServiceTable, clientId: number, wabaId: string, name: string, language: string) {
  const found = await table.client.send(
    new QueryCommand({
      TableName: table.name,
      IndexName: 'listing',
      KeyConditionExpression: 'listing_pk = :p AND begins_with(listing_sk, :o)',
      ExpressionAttributeValues: { ':p': keys.listing(clientId, false), ':o': `${keys.listingOrder(name, language, wabaId, '')}` },
      ProjectionExpression: 'pk',
      Limit: 1,
    }),
  );
  const pk = found.Items?.[0]?.pk;
  if (typeof pk !== 'string') return null;
  const entry = await table.client.send(new GetCommand({ TableName: table.name, Key: { pk, sk: SORT.assignmentsVersion } }));
  return entry.Item ? entryFromItem(entry.Item) : null;
}

/** The meta templates of a client's live entries on one WABA (review warnings compare wordings with them). */
export async function readWabaTemplates(table: ServiceTable, clientId: number, wabaId: string) {
  const matches = await facetMatches(table, FACET_INDEXES.waba, [keys.listingFacet(clientId, false, 'waba', wabaId)]);
  return (
    await entriesByKey(
      table,
      matches.map((m) => m.pk),
    )
  ).map((e) => e.entry.meta_template as MetaTemplate);
}
