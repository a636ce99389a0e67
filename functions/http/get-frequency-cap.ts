import { DynamoFrequencyCaps } from '#lib/adapters/dynamo/people/frequency-caps.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { getFrequencyCap } from '#lib/domain/people/frequency-caps.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetFrequencyCap } from '#lib/manifest/routes/consent.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();
const stores = { caps: new DynamoFrequencyCaps(table), directory: new DynamoDirectoryStore(table) };

export const handler = httpFunction(GetFrequencyCap, ({ path, caller }) => getFrequencyCap(stores, caller, path.client_id));
