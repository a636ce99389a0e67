import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoCostLedger } from '#lib/adapters/dynamo/money/ledger-store.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { usage } from '#lib/domain/money/usage.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetUsage } from '#lib/manifest/routes/costs.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = {
  ledger: new DynamoCostLedger(table),
  directory: new DynamoDirectoryStore(table),
  sends: new DynamoSendRecords(table),
  priceLists: new DynamoPriceListStore(table),
};

export const handler = httpFunction(GetUsage, ({ query, caller }) => usage(stores, caller, query));
