import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { DynamoSendPerformances } from '#lib/adapters/dynamo/sends/send-performances.ts';
import { getSendPerformance } from '#lib/domain/sends/performance/send-performance.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetSendPerformance } from '#lib/manifest/routes/performance.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = { performances: new DynamoSendPerformances(table), priceLists: new DynamoPriceListStore(table) };

export const handler = httpFunction(GetSendPerformance, ({ path, caller }) => getSendPerformance(stores, caller, path.send_id));
