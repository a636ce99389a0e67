import { DynamoSuppressionStore } from '#lib/adapters/dynamo/people/suppression-store.ts';
import { getSuppression } from '#lib/domain/people/suppression.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetSuppression } from '#lib/manifest/routes/consent.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const stores = { suppressions: new DynamoSuppressionStore(serviceTable()) };

export const handler = httpFunction(GetSuppression, ({ path, query, caller }) =>
  getSuppression(stores, caller, path.person, query.client_id),
);
