import { DynamoBudgetStore } from '#lib/adapters/dynamo/money/budget-store.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { getBudget } from '#lib/domain/money/budget.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetBudget } from '#lib/manifest/routes/costs.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();
const stores = { budgets: new DynamoBudgetStore(table), priceLists: new DynamoPriceListStore(table) };

export const handler = httpFunction(GetBudget, ({ path, caller }) => getBudget(stores, caller, path.client_id));
