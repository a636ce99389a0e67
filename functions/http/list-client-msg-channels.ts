import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { listClientChannels } from '#lib/domain/shared/channels.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListClientMsgChannels } from '#lib/manifest/routes/channels.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const directory = new DynamoDirectoryStore(table);

export const handler = httpFunction(ListClientMsgChannels, ({ query, caller }) => listClientChannels(directory, caller, query));
