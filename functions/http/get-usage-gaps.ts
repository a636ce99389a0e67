import { DynamoReconciliationStore } from '#lib/adapters/dynamo/money/reconciliation-store.ts';
import { usageGaps } from '#lib/domain/money/usage-gaps.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetUsageGaps } from '#lib/manifest/routes/costs.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const stores = { reconciliation: new DynamoReconciliationStore(serviceTable()) };

export const handler = httpFunction(GetUsageGaps, ({ query, caller }) => usageGaps(stores, caller, query));
