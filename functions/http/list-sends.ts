import { DynamoSendStore } from '#lib/adapters/dynamo/send-store.ts';
import { listSends } from '#lib/domain/send-status.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListSends } from '#lib/routes.ts';

const stores = { sends: new DynamoSendStore() };

export const handler = httpFunction(ListSends, ({ query, caller }) => listSends(stores, caller, query));
