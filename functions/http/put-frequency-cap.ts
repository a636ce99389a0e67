import { DynamoFrequencyCaps } from '#lib/adapters/dynamo/people/frequency-caps.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { putFrequencyCap } from '#lib/domain/people/frequency-caps.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { PutFrequencyCap } from '#lib/manifest/routes/consent.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();
const stores = { caps: new DynamoFrequencyCaps(table), directory: new DynamoDirectoryStore(table) };

export const handler = httpFunction(PutFrequencyCap, ({ path, body, caller }) => putFrequencyCap(stores, caller, path.client_id, body));
