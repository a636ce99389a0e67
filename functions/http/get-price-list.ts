import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { getPriceLists } from '#lib/domain/money/price-lists.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetPriceList } from '#lib/manifest/routes/prices.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = { priceLists: new DynamoPriceListStore(table), directory: new DynamoDirectoryStore(table) };

export const handler = httpFunction(GetPriceList, ({ path, caller }) => getPriceLists(stores, caller, path.client_id));
