import * as v from 'valibot';

/** Query-string helpers: every value arrives as a string and is checked before it is converted. */
export const wholeNumberParam = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,8}$/, 'must be a whole number ≥ 1'), v.transform(Number));
export const booleanParam = v.pipe(
  v.string(),
  v.picklist(['true', 'false'], 'must be true or false'),
  v.transform((s) => s === 'true'),
);
export const clientIdBody = v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(1));
export const textParam = v.pipe(v.string(), v.maxLength(512));
