import {
  AddSuppressionBody,
  AddSuppressionResponse,
  GetSuppressionResponse,
  ListSuppressionsQuery,
  ListSuppressionsResponse,
  PersonPath,
  RemoveSuppressionQuery,
  RemoveSuppressionResponse,
} from '#lib/schemas/suppression.ts';
import type { RouteDef } from '../route.ts';

// Each client's suppression list (decisions §25).

export const ListSuppressions = {
  name: 'ListSuppressions',
  method: 'GET',
  path: '/v1/suppressions',
  entry: 'functions/http/list-suppressions.ts',
  summary: 'The client’s suppression list: recipients who opted out of marketing, with where each entry came from',
  success: 200,
  response: ListSuppressionsResponse,
  sample: { token: 'acme', expect: 200 },
  auth: true,
  request: { query: ListSuppressionsQuery, invalidMessage: 'client_id, page or size not valid numbers' },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const AddSuppression = {
  name: 'AddSuppression',
  method: 'POST',
  path: '/v1/suppressions',
  entry: 'functions/http/add-suppression.ts',
  summary: 'Put a person (phone number, BSUID or both) on the client’s suppression list: MARKETING sends skip them',
  success: 200,
  response: AddSuppressionResponse,
  sample: { token: 'acme', body: { phone: '+52 1 555 000 0000', reason: 'asked by phone' }, expect: 200 },
  auth: true,
  request: { body: AddSuppressionBody },
  errors: [400, 403],
  needs: { table: 'write' },
} satisfies RouteDef;

export const RemoveSuppression = {
  name: 'RemoveSuppression',
  method: 'DELETE',
  path: '/v1/suppressions/{person}',
  entry: 'functions/http/remove-suppression.ts',
  summary: 'Take a person (phone number or BSUID) off the client’s suppression list (they opted back in)',
  success: 200,
  response: RemoveSuppressionResponse,
  sample: { token: 'acme', path: { person: '5215550009999' }, expect: 404 },
  auth: true,
  request: { path: PersonPath, query: RemoveSuppressionQuery },
  errors: [400, 403, 404],
  needs: { table: 'write' },
} satisfies RouteDef;

export const GetSuppression = {
  name: 'GetSuppression',
  method: 'GET',
  path: '/v1/suppressions/{person}',
  entry: 'functions/http/get-suppression.ts',
  summary: 'Whether one person (phone number or BSUID) is on the client’s suppression list, and since when and why',
  success: 200,
  response: GetSuppressionResponse,
  sample: { token: 'acme', path: { person: '5215550009999' }, expect: 404 },
  auth: true,
  request: { path: PersonPath, query: RemoveSuppressionQuery },
  errors: [400, 403, 404],
  needs: { table: 'read' },
} satisfies RouteDef;

/** This area's routes, in the order the OpenAPI document lists them. */
export const consentRoutes: RouteDef[] = [ListSuppressions, GetSuppression, AddSuppression, RemoveSuppression];
