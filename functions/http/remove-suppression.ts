import { DynamoSuppressionStore } from '#lib/adapters/dynamo/people/suppression-store.ts';
import { removeSuppression } from '#lib/domain/people/suppression.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { RemoveSuppression } from '#lib/manifest/routes/consent.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const stores = { suppressions: new DynamoSuppressionStore(serviceTable()) };

export const handler = httpFunction(RemoveSuppression, ({ path, query, caller }) =>
  removeSuppression(stores, caller, path.person, query.client_id),
);
