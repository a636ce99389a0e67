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
import { FrequencyCapBody, FrequencyCapPath, FrequencyCapResponse } from '#lib/schemas/frequency-cap.ts';
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

export const PutFrequencyCap = {
  name: 'PutFrequencyCap',
  method: 'PUT',
  path: '/v1/clients/{client_id}/frequency-cap',
  params: { client_id: 'The client' },
  entry: 'functions/http/put-frequency-cap.ts',
  summary:
    'Set or remove (`marketing: null`) a client’s cap on MARKETING messages per person: at most `max` in any `days` days across all its sends; a MARKETING send skips a person at the cap, counted `capped_by_rule` (BSP_CN, or the client’s administrator)',
  success: 200,
  response: FrequencyCapResponse,
  sample: { token: 'acme', path: { client_id: '7' }, body: { marketing: { max: 1, days: 7 } }, expect: 403 },
  auth: true,
  request: { path: FrequencyCapPath, body: FrequencyCapBody },
  errors: [400, 403, 404],
  needs: { table: 'write' },
} satisfies RouteDef;

export const GetFrequencyCap = {
  name: 'GetFrequencyCap',
  method: 'GET',
  path: '/v1/clients/{client_id}/frequency-cap',
  params: { client_id: 'The client' },
  entry: 'functions/http/get-frequency-cap.ts',
  summary: 'A client’s cap on MARKETING messages per person (`marketing: null` without one)',
  success: 200,
  response: FrequencyCapResponse,
  sample: { token: 'acme', path: { client_id: '7' }, expect: 200 },
  auth: true,
  request: { path: FrequencyCapPath },
  errors: [400, 403, 404],
  needs: { table: 'read' },
} satisfies RouteDef;

/** This area's routes, in the order the OpenAPI document lists them. */
export const consentRoutes: RouteDef[] = [
  ListSuppressions,
  GetSuppression,
  AddSuppression,
  RemoveSuppression,
  GetFrequencyCap,
  PutFrequencyCap,
];
