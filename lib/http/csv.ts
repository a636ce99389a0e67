import { wantedType } from './accept.ts';

/** Whether an `Accept` header prefers CSV to JSON (./accept.ts: q-values, then the order listed). */
export function wantsCsv(accept: string | undefined) {
  return wantedType(accept, ['text/csv']) === 'text/csv';
}

/** A cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. */
const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * Rows as CSV (RFC 4180, CRLF line ends): a header row of `columns`, then one line a row; a missing value is an
 * empty cell, and the numbers of `decimals`' columns are written with that many decimals.
 */
export function csvOf(rows: Record<string, unknown>[], spec: { columns: readonly string[]; decimals: Readonly<Record<string, number>> }) {
  const lines = [spec.columns.join(',')];
  for (const row of rows) {
    lines.push(
      spec.columns
        .map((column) => {
          const value = row[column];
          if (value === undefined || value === null) return '';
          const decimals = spec.decimals[column];
          return cell(typeof value === 'number' && decimals !== undefined ? value.toFixed(decimals) : String(value));
        })
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
