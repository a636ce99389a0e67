import * as v from 'valibot';
import type { RouteDef } from '../route.ts';

// The public API documents.

export const GetOpenApi = {
  name: 'GetOpenApi',
  method: 'GET',
  path: '/v1/openapi.json',
  entry: 'functions/http/get-openapi.ts',
  summary: 'This API as an OpenAPI 3.1 document',
  success: 200,
  response: v.looseObject({ openapi: v.string(), paths: v.record(v.string(), v.unknown()) }),
  sample: { expect: 200 },
  auth: false,
  publicBecause: "The API's public description; no data.",
  errors: [],
  needs: { table: 'none' },
} satisfies RouteDef;

/** Where Swagger UI's files come from (npm swagger-ui-dist) and where the function finds them (next to its bundle). */
export const API_DOCS_FILES = [
  { from: 'node_modules/swagger-ui-dist/swagger-ui-bundle.js', to: 'swagger-ui-bundle.js' },
  { from: 'node_modules/swagger-ui-dist/swagger-ui.css', to: 'swagger-ui.css' },
] as const;

export const GetApiDocs = {
  name: 'GetApiDocs',
  method: 'GET',
  path: '/v1/docs',
  entry: 'functions/http/get-api-docs.ts',
  summary: 'This API’s reference page (Swagger UI over the OpenAPI document), for a browser',
  success: 200,
  produces: 'text/html',
  response: v.string(),
  sample: { expect: 200 },
  auth: false,
  publicBecause: "The API's public reference page; no data.",
  files: API_DOCS_FILES,
  errors: [],
  needs: { table: 'none' },
} satisfies RouteDef;

/** This area's routes, in the order the OpenAPI document lists them. */
export const docsRoutes: RouteDef[] = [GetOpenApi, GetApiDocs];
