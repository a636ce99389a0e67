import { DynamoKnownCurrencies } from '#lib/adapters/dynamo/money/known-currencies.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { KeptBillingCurrencies } from '#lib/domain/money/billing-currencies.ts';
import { putPriceList } from '#lib/domain/money/price-lists.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { logger } from '#lib/log/logger.ts';
import { PutPriceList } from '#lib/manifest/routes/prices.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';

const table = serviceTable();

const stores = {
  priceLists: new DynamoPriceListStore(table),
  directory: new DynamoDirectoryStore(table),
  // Each WABA's currency as the status path bills it: the one kept in the table, Graph asked when none is fresh.
  // Graph is made at first use: a bundle loads before its settings are read.
  currencies: new KeptBillingCurrencies({
    known: new DynamoKnownCurrencies(table),
    upstream: { currencyOf: (wabaId) => graphUpstream().currencyOf(wabaId) },
    log: logger,
  }),
};

export const handler = httpFunction(PutPriceList, ({ path, body, caller }) => putPriceList(stores, caller, path.client_id, body));
