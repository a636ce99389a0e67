import { DynamoBudgetStore } from '#lib/adapters/dynamo/money/budget-store.ts';
import { DynamoKnownCurrencies } from '#lib/adapters/dynamo/money/known-currencies.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { getBudget } from '#lib/domain/money/budget.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { GetBudget } from '#lib/manifest/routes/costs.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();
const stores = {
  budgets: new DynamoBudgetStore(table),
  priceLists: new DynamoPriceListStore(table),
  // The client's billing timezone and its WABAs' zones as kept: the budget's month is the client's (decisions §31).
  directory: new DynamoDirectoryStore(table),
  known: new DynamoKnownCurrencies(table),
};

export const handler = httpFunction(GetBudget, ({ path, caller }) => getBudget(stores, caller, path.client_id));
