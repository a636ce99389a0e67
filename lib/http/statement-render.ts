import type { statement } from '#lib/domain/money/statements/statement.ts';
import { exchangeRateText } from '#lib/domain/money/statements/view.ts';
import { STATEMENT_CSV } from '#lib/schemas/statements.ts';
import { csvOf } from './csv.ts';

/** A statement as GET /v1/clients/{client_id}/statements/{month} answers it in JSON. */
export type StatementBody = Awaited<ReturnType<typeof statement>>;

/**
 * The statement as CSV (decisions §27): one row a line, then a `total` row a currency with its amount due, the card
 * and price-list versions and the exchange rates into that currency (decisions §31); every row names the client,
 * month, status and the lines' sha256, amounts to the micro-unit.
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
      exchange_rates: ratesInto(body, currency),
    },
  ]);
  return csvOf(rows, STATEMENT_CSV);
}

/** The rates that converted Meta's cost into a statement's currency, as printed ("Price list …: 17.25 MXN per USD"). */
function ratesInto(body: StatementBody, currency: string) {
  const rates = (body.exchange_rates ?? []).filter((rate) => rate.currency === currency);
  return rates.map(exchangeRateText).join('; ');
}
