import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { putPriceList } from '#lib/domain/money/price-lists.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { PutPriceList } from '#lib/manifest/routes/prices.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = { priceLists: new DynamoPriceListStore(table), directory: new DynamoDirectoryStore(table) };

export const handler = httpFunction(PutPriceList, ({ path, body, caller }) => putPriceList(stores, caller, path.client_id, body));
