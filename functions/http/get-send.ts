import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { getSend } from '#lib/domain/sends/send-status.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetSend } from '#lib/manifest/routes/sends.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const stores = { sends: new DynamoSendRecords(table), priceLists: new DynamoPriceListStore(table) };

export const handler = httpFunction(GetSend, ({ path, caller }) => getSend(stores, caller, path.send_id));
