import type { statement } from '#lib/domain/money/statements/statement.ts';
import { STATEMENT_CSV } from '#lib/schemas/statements.ts';
import { csvOf } from './csv.ts';

/** A statement as GET /v1/clients/{client_id}/statements/{month} answers it in JSON. */
export type StatementBody = Awaited<ReturnType<typeof statement>>;

/**
 * The statement as CSV (decisions §27): one row a line, then a `total` row a currency with its amount due and the card
 * and price-list versions; every row names the client, month, status and the lines' sha256, amounts to the micro-unit.
 */
export function statementCsv(body: StatementBody) {
  const common = {
    number: body.number,
    client_id: body.client_id,
    month: body.month,
    status: body.status,
    lines_sha256: body.lines_sha256,
  };
  const rows = body.statements.flatMap(({ currency, lines, totals, amount_due }) => [
    ...lines.map(({ unit_price, ...line }) => ({ ...common, currency, ...line, unit_price_micros: unit_price })),
    {
      ...common,
      currency,
      kind: 'total',
      ...totals,
      amount_due: amount_due.amount.toFixed(amount_due.minor_digits),
      card_versions: body.card_versions.join(' '),
      price_list_versions: body.price_list_versions.join(' '),
    },
  ]);
  return csvOf(rows, STATEMENT_CSV);
}
