import { wantedType } from './accept.ts';

/** Whether an `Accept` header prefers CSV to JSON (./accept.ts: q-values, then the order listed). */
export function wantsCsv(accept: string | undefined) {
  return wantedType(accept, ['text/csv']) === 'text/csv';
}

/** What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"): `=`, `+`, `-`, `@`, tab, CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A plain decimal number (`-1.5`, `-1.50`, `2e-7`): a spreadsheet reads it as a number, never as a formula. */
const DECIMAL = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

/**
 * One cell of every CSV the service writes (decisions §32). Numbers stay numbers: a finite number, written with
 * `decimals` when given, and any text that is a plain decimal (the statement's amount due, `-1.50`) are written as
 * they are, so a negative amount still sums. Any other text that begins as a formula would is neutralised as
 * OWASP describes: prefixed with a single quote and quoted. Else RFC 4180: quoted when it holds a comma, a quote
 * or a line break. A missing value is an empty cell.
 */
export function csvCell(value: unknown, decimals?: number): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'number' && decimals !== undefined ? value.toFixed(decimals) : String(value);
  if (DECIMAL.test(text)) return text;
  const escaped = text.replace(/"/g, '""');
  if (FORMULA_START.test(text)) return `"'${escaped}"`;
  return /[",\r\n]/.test(text) ? `"${escaped}"` : text;
}

/**
 * Rows as CSV (RFC 4180, CRLF line ends): a header row of `columns`, then one line a row, every cell written by
 * `csvCell`; the numbers of `decimals`' columns are written with that many decimals.
 */
export function csvOf(rows: Record<string, unknown>[], spec: { columns: readonly string[]; decimals: Readonly<Record<string, number>> }) {
  const lines = [spec.columns.map((column) => csvCell(column)).join(',')];
  for (const row of rows) lines.push(spec.columns.map((column) => csvCell(row[column], spec.decimals[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
