import * as v from 'valibot';

/** Query-string helpers: every value arrives as a string and is checked before it is converted. */
export const wholeNumberParam = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,8}$/, 'must be a whole number ≥ 1'), v.transform(Number));
export const booleanParam = v.pipe(
  v.string(),
  v.picklist(['true', 'false'], 'must be true or false'),
  v.transform((s) => s === 'true'),
);
/**
 * client_id in a query string, the same on every route: a whole number ≥ 1 (the spec's 400 "invalid client_id:
 * <value>" otherwise, lib/http/middlewares/validate-request.ts).
 */
export const clientIdParam = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,14}$/, 'must be a whole number ≥ 1'), v.transform(Number));
/** An id in a body: a whole number ≥ 1 of at most 15 digits, so every id is a safe integer (2^53 had made a 500). */
export const wholeIdBody = v.pipe(
  v.number('must be a number'),
  v.integer('must be a whole number'),
  v.minValue(1),
  v.maxValue(999_999_999_999_999, 'must be at most 15 digits'),
);
/** client_id in a body: the query's range. */
export const clientIdBody = wholeIdBody;
export const textParam = v.pipe(v.string(), v.maxLength(512));

/** Response shapes: what a route answers on success (the OpenAPI document and the HTTP tests read them). */
export const count = v.pipe(v.number(), v.integer(), v.minValue(0));
export const timestamp = v.pipe(v.string(), v.isoTimestamp());

/** One page of a listing (decisions §3): the items and where the page sits. */
export const pageOf = <T extends v.GenericSchema>(item: T) =>
  v.object({ data: v.array(item), total: count, page: count, page_size: count });

/** One problem of a request: where (`recipients[3].params.body`) and what (decisions §2). */
export const ErrorDetailShape = v.object({ path: v.string(), message: v.string() });
