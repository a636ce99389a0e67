import { DynamoSendStore } from '#lib/adapters/dynamo/send-store.ts';
import { listRecipients } from '#lib/domain/send-recipients.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListSendRecipients } from '#lib/manifest/routes/sends.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const stores = { sends: new DynamoSendStore(serviceTable()) };

export const handler = httpFunction(ListSendRecipients, ({ path, query, caller }) => listRecipients(stores, caller, path.send_id, query));
