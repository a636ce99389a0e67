import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { DynamoSendPerformances } from '#lib/adapters/dynamo/sends/send-performances.ts';
import { getSendPerformance } from '#lib/domain/sends/performance/send-performance.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetSendPerformance } from '#lib/manifest/routes/performance.ts';
import { serviceTable } from '#lib/wiring/table.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoTemplateAnalytics } from '#lib/adapters/dynamo/templates/template-analytics.ts';

const table = serviceTable();

const stores = {
  performances: new DynamoSendPerformances(table),
  priceLists: new DynamoPriceListStore(table),
  // Meta's URL clicks of the templates, as the daily ReadTemplateAnalytics job keeps them (issue 56 item 2).
  analytics: new DynamoTemplateAnalytics(table, new DynamoDirectoryStore(table)),
};

export const handler = httpFunction(GetSendPerformance, ({ path, caller }) => getSendPerformance(stores, caller, path.send_id));
