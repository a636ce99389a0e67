import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { cancelSend } from '#lib/domain/sends/operations/cancel-send.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { CancelSend } from '#lib/manifest/routes/sends.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const stores = { sends: new DynamoSendRecords(serviceTable()) };

export const handler = httpFunction(CancelSend, ({ path, caller }) => cancelSend(stores, caller, path.send_id));
