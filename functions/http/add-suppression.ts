import { DynamoSuppressionStore } from '#lib/adapters/dynamo/people/suppression-store.ts';
import { addSuppression } from '#lib/domain/people/suppression.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { AddSuppression } from '#lib/manifest/routes/consent.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const stores = { suppressions: new DynamoSuppressionStore(serviceTable()) };

export const handler = httpFunction(AddSuppression, ({ body, caller }) => addSuppression(stores, caller, body));
