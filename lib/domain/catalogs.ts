import type { Caller } from '#lib/auth/caller.ts';
import { badRequest, notFound } from '#lib/errors.ts';
import type { DirectoryStore } from '#lib/store/ports.ts';
import { callUpstream } from '#lib/upstream/errors.ts';
import type { GraphPage } from '#lib/upstream/graph-client.ts';
import { UpstreamError } from '#lib/upstream/graph-client.ts';
import { resolveProvider, type WabaLookup } from './provider.ts';
import { actingClient } from './tenancy.ts';

export interface CatalogUpstream extends WabaLookup {
  listCatalogs(wabaId: string): Promise<GraphPage<{ id: string; name?: string; vertical?: string }>>;
  listProducts(
    catalogId: string,
    query: { limit: number; after?: string; fields: string[] },
  ): Promise<GraphPage<Record<string, unknown>>>;
}

export interface CatalogDeps {
  directory: DirectoryStore;
  upstream: CatalogUpstream;
}

export const PRODUCTS_PAGE = { size: 25, max: 100 };
const PRODUCT_FIELDS = ['id', 'name', 'retailer_id', 'image_url', 'image_urls', 'additional_image_urls', 'description', 'currency', 'price', 'url', 'category', 'unique_id'];

const str = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

/** The contract's Product from a Graph ProductItem; image_urls gathers the main and additional images. */
export function toProduct(item: Record<string, unknown>) {
  const images = Array.isArray(item.image_urls)
    ? item.image_urls.map(str)
    : [item.image_url, ...(Array.isArray(item.additional_image_urls) ? item.additional_image_urls : [])].filter(Boolean).map(str);
  return {
    id: str(item.id),
    name: str(item.name),
    retailer_id: str(item.retailer_id),
    image_urls: images,
    description: str(item.description),
    currency: str(item.currency),
    price: str(item.price),
    url: str(item.url),
    category: str(item.category),
    unique_id: str(item.unique_id ?? item.retailer_id),
  };
}

async function wabaCatalogs(deps: CatalogDeps, caller: Caller, did: string, clientId?: number) {
  const client = actingClient(caller, clientId);
  const provider = await resolveProvider(deps, client, did);
  const catalogs = await callUpstream(() => deps.upstream.listCatalogs(provider.wabaId));
  return catalogs.data.map((c) => ({ id: str(c.id), name: str(c.name), vertical: str(c.vertical) }));
}

/** GET /v1/catalogs/{did} */
export async function listCatalogs(deps: CatalogDeps, caller: Caller, input: { did: string; clientId?: number }) {
  return { data: await wabaCatalogs(deps, caller, input.did, input.clientId) };
}

/**
 * GET /v1/catalogs/{did}/products. The catalog must be one of the DID's WABA's catalogs (404 otherwise), so
 * nobody reads another client's catalog by guessing its id. `cursor` is the upstream's `after` cursor;
 * `paging.next` is present only when another page exists.
 */
export async function listProducts(
  deps: CatalogDeps,
  caller: Caller,
  input: { did: string; catalogId: string; clientId?: number; cursor?: string; limit?: number },
) {
  const catalogs = await wabaCatalogs(deps, caller, input.did, input.clientId);
  if (!catalogs.some((c) => c.id === input.catalogId)) throw notFound(`Catalog ${input.catalogId} not found for this DID`);
  const limit = Math.min(input.limit ?? PRODUCTS_PAGE.size, PRODUCTS_PAGE.max);
  let page: GraphPage<Record<string, unknown>>;
  try {
    page = await deps.upstream.listProducts(input.catalogId, { limit, after: input.cursor, fields: PRODUCT_FIELDS });
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === 'rejected' && input.cursor) {
      throw badRequest('invalid cursor', [{ path: 'cursor', message: 'is not a cursor of this catalog' }]);
    }
    return callUpstream(() => Promise.reject(error));
  }
  const cursors = page.paging?.cursors;
  return {
    data: page.data.map(toProduct),
    paging: {
      cursors: { before: cursors?.before ?? '', after: cursors?.after ?? '' },
      ...(page.paging?.next && cursors?.after ? { next: cursors.after } : {}),
    },
  };
}
