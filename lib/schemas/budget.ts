import * as v from 'valibot';
import { clientIdParam } from './common.ts';

/** `/v1/clients/{client_id}/budget` (decisions §24). */
export const ClientIdPath = v.object({ client_id: clientIdParam });

/** A monthly budget in USD (at most a billion, to the micro-dollar), or null to remove it. */
export const BudgetBody = v.strictObject({
  monthly_amount: v.nullable(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1_000_000_000))),
});

const usd = v.pipe(v.number(), v.minValue(0));

export const BudgetResponse = v.object({
  client_id: v.number(),
  monthly_amount: v.nullable(usd),
  /** The client's price list's currency where one is in force, else USD (decisions §27). */
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  /** The month (UTC, YYYY-MM) the figures are of. */
  month: v.string(),
  /** What this month's delivered messages cost (decisions §27). */
  spent: usd,
  /** The estimates of this month's messages not settled yet: each gives its part back as it settles. */
  reserved: usd,
  /** The budget less what was spent and what is reserved. */
  remaining: v.nullable(usd),
});
