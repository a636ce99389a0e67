/**
 * One currency per figure (decisions §31: no sum or difference mixes currencies): the figures of a money answer's
 * JSON that would, each named by its path and why. A figure's currency is the one its object names for it, else
 * the object's `currency`, else the nearest enclosing object's:
 * - `price`: its own object's `currency`, else `price_currency`; `cost`: likewise, else `cost_currency`;
 * - a `margin` is a difference: its price and cost must be of one currency;
 * - a total is a sum: a `totals` (or `total`) beside `lines` has the lines' cost currency, and an object naming a
 *   `currency` holds no row (an array's object) naming another;
 * - a budget (an object with `monthly_amount` and `spent`) is in the currency it is expected in, where one is.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const currencyOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The currency of an object's price and of its cost, as it names them. */
function figureCurrencies(object: Json, inherited: string | undefined) {
  const own = currencyOf(object.currency) ?? inherited;
  const price = isObject(object.price) ? currencyOf(object.price.currency) : (currencyOf(object.price_currency) ?? own);
  const cost = isObject(object.cost) ? currencyOf(object.cost.currency) : (currencyOf(object.cost_currency) ?? own);
  return { own, price, cost };
}

/** What of one object mixes currencies (its children are walked by `mixedCurrencies`). */
function mixedIn(object: Json, path: string, inherited: string | undefined, budgetCurrency?: string): string[] {
  const { own, price, cost } = figureCurrencies(object, inherited);
  const found: string[] = [];
  if ('margin' in object && price !== cost) found.push(`${path}: a margin of a price in ${price} and a cost in ${cost}`);
  const total = isObject(object.totals) ? object.totals : isObject(object.total) ? object.total : undefined;
  if (total && Array.isArray(object.lines)) {
    const totalCost = figureCurrencies(total, own).cost;
    object.lines.forEach((line, i) => {
      const lineCost = isObject(line) ? figureCurrencies(line, own).cost : totalCost;
      if (isObject(line) && 'cost' in line && lineCost !== totalCost)
        found.push(`${path}.lines[${i}]: a cost in ${lineCost} summed into a total in ${totalCost}`);
    });
  }
  for (const [key, value] of Object.entries(object)) {
    if (!Array.isArray(value) || currencyOf(object.currency) === undefined) continue;
    value.forEach((row, i) => {
      const rowCurrency = isObject(row) ? currencyOf(row.currency) : undefined;
      if (rowCurrency !== undefined && rowCurrency !== own) found.push(`${path}.${key}[${i}]: a row in ${rowCurrency} under ${own}`);
    });
  }
  if (budgetCurrency && 'monthly_amount' in object && 'spent' in object && own !== budgetCurrency)
    found.push(`${path}: a budget's figures in ${own}, the budget in ${budgetCurrency}`);
  return found;
}

/** Every figure of a body that mixes currencies, by its path (`$` the body); none: an empty list. */
export function mixedCurrencies(body: unknown, expected: { budgetCurrency?: string } = {}, path = '$', inherited?: string): string[] {
  if (Array.isArray(body)) return body.flatMap((item, i) => mixedCurrencies(item, expected, `${path}[${i}]`, inherited));
  if (!isObject(body)) return [];
  const own = currencyOf(body.currency) ?? inherited;
  return [
    ...mixedIn(body, path, inherited, expected.budgetCurrency),
    ...Object.entries(body).flatMap(([key, value]) => mixedCurrencies(value, expected, `${path}.${key}`, own)),
  ];
}
