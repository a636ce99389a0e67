import {
  SendPerformanceResponse,
  TEMPLATE_PERFORMANCE_CSV,
  TemplatePerformanceQuery,
  TemplatePerformanceResponse,
} from '#lib/schemas/performance.ts';
import { SendIdPath } from '#lib/schemas/send.ts';
import { type RouteDef, SAMPLE } from '../route.ts';

// Which template worked: a send's and a client's templates' performance (decisions §33).

export const GetSendPerformance = {
  name: 'GetSendPerformance',
  method: 'GET',
  path: '/v1/sends/{send_id}/performance',
  entry: 'functions/http/get-send-performance.ts',
  summary:
    'A send’s performance per template variant and day: sent, delivered, read, failed by code, replies by context and within 24 h, quick-reply buttons, cost and price; rates with 95 % intervals, and whether variants differ',
  success: 200,
  response: SendPerformanceResponse,
  sample: { token: 'acme', path: { send_id: SAMPLE.unknownId }, expect: 404 },
  auth: true,
  request: { path: SendIdPath },
  errors: [400, 404],
  needs: { table: 'read' },
} satisfies RouteDef;

export const GetTemplatePerformance = {
  name: 'GetTemplatePerformance',
  method: 'GET',
  path: '/v1/templates/performance',
  entry: 'functions/http/get-template-performance.ts',
  summary:
    'A client’s templates’ performance by day (its WABAs’ days) from `from` to `to`, with rates and each template’s totals (JSON or CSV)',
  success: 200,
  response: TemplatePerformanceResponse,
  csv: TEMPLATE_PERFORMANCE_CSV,
  sample: { token: 'acme', query: { from: '2026-11-01', to: '2026-11-30' }, expect: 200 },
  auth: true,
  request: { query: TemplatePerformanceQuery, invalidMessage: 'client_id, from or to not valid' },
  errors: [400, 403],
  needs: { table: 'read' },
} satisfies RouteDef;

/** This area's routes, in the order the OpenAPI document lists them. */
export const performanceRoutes: RouteDef[] = [GetSendPerformance, GetTemplatePerformance];
