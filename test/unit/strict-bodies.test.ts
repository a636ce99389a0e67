import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BudgetBody } from '#lib/schemas/budget.ts';
import { issuesToDetails } from '#lib/schemas/issues.ts';
import { PriceListBody } from '#lib/schemas/price-list.ts';
import { AddSuppressionBody } from '#lib/schemas/suppression.ts';

/**
 * Every money and people body refuses a field it does not know (decisions §2, §32): the 400's details name it,
 * `Unknown field`, where before it was dropped unseen.
 */
const BODIES = [
  ['a budget (PUT /v1/clients/{client_id}/budget)', BudgetBody, { monthly_amount: 100 }],
  [
    'a price list (PUT /v1/clients/{client_id}/price-list)',
    PriceListBody,
    { effective_from: '2099-01-01', currency: 'USD', markup_percent: 20 },
  ],
  ['a suppression (POST /v1/suppressions)', AddSuppressionBody, { phone: '+5215550000000', reason: 'asked by phone', client_id: 7 }],
] as const;

/** The body as JSON.parse gives it with one more field (`__proto__` too stays an own field there). */
const withField = (body: object, key: string, value: unknown) =>
  JSON.parse(`${JSON.stringify(body).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}`) as unknown;

/** As lib/http/middlewares/validate-request.ts parses a body. */
const details = (schema: v.GenericSchema, body: unknown) => {
  const result = v.safeParse(schema, body, { abortPipeEarly: true });
  return result.success ? [] : issuesToDetails(result.issues);
};

describe('money and people bodies refuse unknown fields (decisions §2, §32)', () => {
  it.each(BODIES)('takes %s with only its own fields', (_, schema, body) => {
    // Act / Assess
    expect(details(schema, body)).toEqual([]);
  });

  it.each(BODIES)('refuses %s with a field it does not know, naming it (property)', (_, schema, body) => {
    // Prepare: any name the body does not have, any JSON value
    const name = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'client_id ', 'cost', 'markup', 'MONTHLY_AMOUNT'));
    const unknownName = name.filter((key) => !Object.hasOwn(schema.entries, key));
    fc.assert(
      fc.property(unknownName, fc.jsonValue(), (key, value) => {
        // Act
        const found = details(schema, withField(body, key, value));
        // Assess
        expect(found).toContainEqual({ path: key, message: 'Unknown field' });
      }),
      { numRuns: 300 },
    );
  });
});
