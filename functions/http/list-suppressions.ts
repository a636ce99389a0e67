import { DynamoSuppressionStore } from '#lib/adapters/dynamo/people/suppression-store.ts';
import { listSuppressions } from '#lib/domain/people/suppression.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { ListSuppressions } from '#lib/manifest/routes/consent.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const stores = { suppressions: new DynamoSuppressionStore(serviceTable()) };

export const handler = httpFunction(ListSuppressions, ({ query, caller }) => listSuppressions(stores, caller, query));
