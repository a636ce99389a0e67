import { describe, expect, it } from 'vitest';
import { mediaRanges, wantedType } from '#lib/http/accept.ts';
import { wantsCsv } from '#lib/http/csv.ts';

/** Accept negotiation (issue 51, RFC 9110 §12.5.1): q-values, wildcards, q=0 and ties by the order listed. */
const STATEMENT_TYPES = ['text/csv', 'application/pdf'] as const;

describe('Accept negotiation', () => {
  it.each([
    ['text/csv;q=0.9, application/json', undefined],
    ['application/json;q=0.5, text/csv', 'text/csv'],
    ['text/csv, application/pdf', 'text/csv'],
    ['application/pdf, text/csv', 'application/pdf'],
    ['text/csv;q=0.2, application/pdf;q=0.8, application/json;q=0.5', 'application/pdf'],
    ['text/*', 'text/csv'],
    ['text/*;q=0.5, application/json', undefined],
    ['*/*', undefined],
    ['*/*;q=0.1, application/pdf', 'application/pdf'],
    ['application/json;q=0, */*', 'text/csv'],
    ['text/csv;q=0, */*', undefined],
    ['text/csv;q=0, text/*', undefined],
    ['TEXT/CSV; Q=1', 'text/csv'],
    ['text/csv; charset=utf-8', 'text/csv'],
    ['image/png', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('Accept %j answers %s (undefined: JSON)', (accept, expected) => {
    // Prepare / Act
    const chosen = wantedType(accept, STATEMENT_TYPES);
    // Assess
    expect(chosen).toBe(expected);
  });

  it('takes the most specific range for a type: text/csv;q=0 is not acceptable even under */*', () => {
    // Prepare
    const accept = '*/*;q=0.8, text/csv;q=0';
    // Act
    const chosen = wantedType(accept, ['text/csv']);
    // Assess
    expect(chosen).toBeUndefined();
    expect(wantedType('text/*;q=0.9, text/csv;q=0.1, application/json;q=0.5', ['text/csv'])).toBeUndefined();
  });

  it('breaks a tie by the order listed, then by JSON first', () => {
    // Prepare / Act / Assess
    expect(wantsCsv('text/csv, application/json')).toBe(true);
    expect(wantsCsv('application/json, text/csv')).toBe(false);
    expect(wantsCsv('text/csv;q=0.7, application/json;q=0.7')).toBe(true);
    expect(wantsCsv('*/*')).toBe(false);
  });

  it('leaves out a range whose q-value is not one', () => {
    // Prepare
    const accept = 'text/csv;q=2, application/pdf;q=abc, application/json;q=0.500, text/plain;q=0.1234, nonsense, ';
    // Act
    const ranges = mediaRanges(accept);
    // Assess
    expect(ranges).toEqual([{ type: 'application', subtype: 'json', q: 0.5, order: 2 }]);
    expect(wantedType(accept, STATEMENT_TYPES)).toBeUndefined();
  });
});
