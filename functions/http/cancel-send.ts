import { DynamoBlockLedger } from '#lib/adapters/dynamo/sends/block-ledger.ts';
import { DynamoHeldJobs } from '#lib/adapters/dynamo/sends/held-jobs.ts';
import { DynamoRecipientLists } from '#lib/adapters/dynamo/sends/recipient-lists.ts';
import { DynamoSendRecords } from '#lib/adapters/dynamo/sends/send-records.ts';
import { cancelSend } from '#lib/domain/sends/operations/cancel-send.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { CancelSend } from '#lib/manifest/routes/sends.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();
const stores = {
  sends: new DynamoSendRecords(table),
  heldJobs: new DynamoHeldJobs(table),
  blocks: new DynamoBlockLedger(table),
  recipientLists: new DynamoRecipientLists(table),
};

export const handler = httpFunction(CancelSend, ({ path, caller }) => cancelSend(stores, caller, path.send_id));
