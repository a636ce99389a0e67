import type { Caller } from '../shared/caller.ts';
import { InvalidRequest, NotFound, UpstreamRejected } from '../shared/errors.ts';
import type { CatalogUpstream, ProductPage } from './ports.ts';
import type { DirectoryStore } from '../shared/ports.ts';
import { resolveProvider } from '../shared/provider.ts';
import { actingClient } from '../shared/tenancy.ts';

/** GET /v1/catalogs/{did} and /products (spec §10). */
export interface CatalogDeps {
  directory: DirectoryStore;
  upstream: CatalogUpstream;
}

export const PRODUCTS_PAGE = { size: 25, max: 100 };

async function wabaCatalogs(deps: CatalogDeps, caller: Caller, did: string, clientId?: number) {
  const client = actingClient(caller, clientId);
  const provider = await resolveProvider(deps, client, did);
  return deps.upstream.catalogsOf(provider.wabaId);
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
  if (!catalogs.some((c) => c.id === input.catalogId)) throw new NotFound(`Catalog ${input.catalogId} not found for this DID`);
  const limit = Math.min(input.limit ?? PRODUCTS_PAGE.size, PRODUCTS_PAGE.max);
  let page: ProductPage;
  try {
    page = await deps.upstream.productsOf(input.catalogId, { limit, cursor: input.cursor });
  } catch (error) {
    // The catalog is known to be the WABA's, so a refusal of a page with a cursor is a refusal of the cursor.
    if (error instanceof UpstreamRejected && input.cursor) {
      throw new InvalidRequest('invalid cursor', [{ path: 'cursor', message: 'is not a cursor of this catalog' }]);
    }
    throw error;
  }
  return {
    data: page.products,
    paging: {
      cursors: { before: page.before, after: page.after },
      ...(page.hasNext && page.after ? { next: page.after } : {}),
    },
  };
}
