import { BudgetBody, BudgetResponse, ClientIdPath } from '#lib/schemas/budget.ts';
import { StatementPath, StatementResponse } from '#lib/schemas/statements.ts';
import { USAGE_CSV, UsageGapsQuery, UsageGapsResponse, UsageQuery, UsageResponse } from '#lib/schemas/usage.ts';
import type { RouteDef } from '../route.ts';

// What messages cost: usage, its gaps with Meta's figures, and budgets (decisions §24, §26).

export const GetUsage = {
  name: 'GetUsage',
  method: 'GET',
  path: '/v1/usage',
  entry: 'functions/http/get-usage.ts',
  summary:
    'What a client’s delivered messages cost, grouped by any of day or month, market, category and number, or by template and send (with category), with Meta’s own figures (JSON or CSV)',
  success: 200,
  response: UsageResponse,
  csv: USAGE_CSV,
  sample: { token: 'acme', query: { from: '2026-11-01', to: '2026-11-30' }, expect: 200 },
  auth: true,
  request: { query: UsageQuery, invalidMessage: 'client_id, from, to or group_by not valid' },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const GetUsageGaps = {
  name: 'GetUsageGaps',
  method: 'GET',
  path: '/v1/usage/gaps',
  entry: 'functions/http/get-usage-gaps.ts',
  summary: 'Every client’s days and markets where the ledger and Meta’s own COST differ by more than 1 %, with both figures (BSP_CN)',
  success: 200,
  response: UsageGapsResponse,
  sample: { token: 'acme', query: { from: '2026-11-01', to: '2026-11-30' }, expect: 403 },
  auth: true,
  request: { query: UsageGapsQuery, invalidMessage: 'from or to not valid' },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const PutBudget = {
  name: 'PutBudget',
  method: 'PUT',
  path: '/v1/clients/{client_id}/budget',
  entry: 'functions/http/put-budget.ts',
  summary:
    'Set or remove a client’s monthly budget in one currency (BSP_CN; `currency`, else its price list’s, else USD): a send whose estimate exceeds what is left is refused',
  success: 200,
  response: BudgetResponse,
  sample: { token: 'acme', path: { client_id: '7' }, body: { monthly_amount: 100 }, expect: 403 },
  auth: true,
  request: { path: ClientIdPath, body: BudgetBody },
  errors: [400, 403, 404],
  needs: { table: 'write' },
} satisfies RouteDef;

export const GetBudget = {
  name: 'GetBudget',
  method: 'GET',
  path: '/v1/clients/{client_id}/budget',
  entry: 'functions/http/get-budget.ts',
  summary: 'A client’s monthly budget, what this month’s sends reserved of it and what is left',
  success: 200,
  response: BudgetResponse,
  sample: { token: 'acme', path: { client_id: '7' }, expect: 200 },
  auth: true,
  request: { path: ClientIdPath },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

export const GetStatement = {
  name: 'GetStatement',
  method: 'GET',
  path: '/v1/clients/{client_id}/statements/{month}',
  params: { client_id: 'The client', month: 'The month, YYYY-MM (in the client’s billing timezone)' },
  entry: 'functions/http/get-statement.ts',
  summary:
    'A client’s monthly statement, from its first charge to the open month: a line per market × category × unit price in each currency, totals, card and price-list versions; open until the close job closes it after the 3rd of the next month, then closed for good (JSON, CSV or PDF)',
  success: 200,
  response: StatementResponse,
  renders: ['text/csv', 'application/pdf'],
  // A month before the demo client's first charge: 404 (decisions §30), and nothing written.
  sample: { token: 'acme', path: { client_id: '7', month: '2026-01' }, expect: 404 },
  auth: true,
  request: { path: StatementPath },
  errors: [400, 403, 404],
  // A read never writes (decisions §30): the close job keeps closed months. It prints the provider's name and address.
  needs: { table: 'read', statements: true },
} satisfies RouteDef;

/** This area's routes, in the order the OpenAPI document lists them. */
export const costsRoutes: RouteDef[] = [GetUsage, GetUsageGaps, PutBudget, GetBudget, GetStatement];
