import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { DynamoRecipientLists } from '#lib/adapters/dynamo/sends/recipient-lists.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { listRecipients } from '#lib/domain/sends/operations/send-recipients.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListSendRecipients } from '#lib/manifest/routes/sends.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();
const stores = {
  sends: new DynamoSendRecords(table),
  recipientLists: new DynamoRecipientLists(table),
  priceLists: new DynamoPriceListStore(table),
};

export const handler = httpFunction(ListSendRecipients, ({ path, query, caller }) => listRecipients(stores, caller, path.send_id, query));
