import { PriceListBody, PriceListPath, PriceListsResponse } from '#lib/schemas/price-list.ts';
import type { RouteDef } from '../route.ts';

// What a provider charges its clients: price lists per client (decisions §27). An area of its own: its body
// names every market of the rate cards, which the other cost routes need not load.

export const PutPriceList = {
  name: 'PutPriceList',
  method: 'PUT',
  path: '/v1/clients/{client_id}/price-list',
  entry: 'functions/http/put-price-list.ts',
  summary:
    'Add a client’s price list from a day on (BSP_CN): Meta’s cost plus a markup, fixed prices per market and category, or both; a list in force is never replaced',
  success: 200,
  response: PriceListsResponse,
  sample: {
    token: 'acme',
    path: { client_id: '7' },
    body: { effective_from: '2099-01-01', currency: 'USD', markup_percent: 20, prices: { Mexico: { marketing: 0.05 } } },
    expect: 403,
  },
  auth: true,
  request: {
    path: PriceListPath,
    body: PriceListBody,
    invalidMessage: 'effective_from, currency, markup_percent, prices or exchange_rates not valid',
  },
  // 502: the billing currency of a WABA of the client could not be read from Meta (decisions §31).
  errors: [400, 403, 404, 409, 502],
  needs: { table: 'write', upstream: true },
} satisfies RouteDef;

export const GetPriceList = {
  name: 'GetPriceList',
  method: 'GET',
  path: '/v1/clients/{client_id}/price-list',
  entry: 'functions/http/get-price-list.ts',
  summary: 'A client’s price lists: the one in force today, those to come and the past ones',
  success: 200,
  response: PriceListsResponse,
  sample: { token: 'acme', path: { client_id: '7' }, expect: 200 },
  auth: true,
  request: { path: PriceListPath },
  errors: [400, 403, 404],
  needs: { table: 'read' },
} satisfies RouteDef;

/** This area's routes, in the order the OpenAPI document lists them. */
export const pricesRoutes: RouteDef[] = [PutPriceList, GetPriceList];
