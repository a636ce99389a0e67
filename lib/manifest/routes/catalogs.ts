import { DidPath, ListCatalogsQuery, ListCatalogsResponse, ListProductsQuery, ListProductsResponse } from '#lib/schemas/catalogs.ts';
import { type RouteDef, SAMPLE } from '../route.ts';

// Catalogs and their products, read from Graph.

export const ListCatalogs = {
  name: 'ListCatalogs',
  method: 'GET',
  path: '/v1/catalogs/{did}',
  entry: 'functions/http/list-catalogs.ts',
  summary: "List the commerce catalogs of the DID's WABA",
  success: 200,
  response: ListCatalogsResponse,
  sample: { token: 'acme', path: { did: SAMPLE.did }, expect: 200 },
  auth: true,
  request: { path: DidPath, query: ListCatalogsQuery },
  errors: [400, 403, 502],
  needs: { table: 'read', upstream: true },
} satisfies RouteDef;

export const ListProducts = {
  name: 'ListProducts',
  method: 'GET',
  path: '/v1/catalogs/{did}/products',
  entry: 'functions/http/list-products.ts',
  summary: 'List the products of one of the WABA’s catalogs, cursor-paged',
  success: 200,
  response: ListProductsResponse,
  sample: { token: 'acme', path: { did: SAMPLE.did }, query: { catalog_id: 'cat-1', limit: '5' }, expect: 200 },
  auth: true,
  request: { path: DidPath, query: ListProductsQuery, invalidMessage: 'Invalid query parameters' },
  errors: [400, 403, 404, 502],
  needs: { table: 'read', upstream: true },
} satisfies RouteDef;

/** This area's routes, in the order the OpenAPI document lists them. */
export const catalogsRoutes: RouteDef[] = [ListCatalogs, ListProducts];
