import * as v from 'valibot';
import { clientIdParam } from './common.ts';

/** `/v1/clients/{client_id}/budget` (decisions §24). */
export const ClientIdPath = v.object({ client_id: clientIdParam });

/**
 * A monthly budget (at most a billion, to the micro-unit), or null to remove it, in one currency (decisions §31):
 * `currency`, else the client's price list in force's, else USD.
 */
export const BudgetBody = v.strictObject({
  monthly_amount: v.nullable(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1_000_000_000))),
  currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code (three capital letters)'))),
});

const usd = v.pipe(v.number(), v.minValue(0));

export const BudgetResponse = v.object({
  client_id: v.number(),
  monthly_amount: v.nullable(usd),
  /**
   * The budget's currency, fixed when it was set (decisions §31; a budget set before is in USD); without a budget,
   * the client's price list's where one is in force, else USD. Every figure of the budget is in it.
   */
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  /** The month (YYYY-MM, in the client's billing timezone, decisions §31) the figures are of. */
  month: v.string(),
  /** What this month's delivered messages cost (decisions §27). */
  spent: usd,
  /** The estimates of this month's messages not settled yet: each gives its part back as it settles. */
  reserved: usd,
  /** The budget less what was spent and what is reserved. */
  remaining: v.nullable(usd),
});
