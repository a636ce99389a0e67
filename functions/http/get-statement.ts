import { createHash } from 'node:crypto';
import { statementIssuerSettings } from '#lib/config.ts';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoCostLedger } from '#lib/adapters/dynamo/money/ledger-store.ts';
import { DynamoKnownCurrencies } from '#lib/adapters/dynamo/money/known-currencies.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { DynamoStatementStore } from '#lib/adapters/dynamo/money/statement-store.ts';
import { statement } from '#lib/domain/money/statements/statement.ts';
import { httpFunction } from '#lib/http/http-function.ts';
import { statementCsv } from '#lib/http/statement-render.ts';
import { GetStatement } from '#lib/manifest/routes/costs.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

const deps = {
  ledger: new DynamoCostLedger(table),
  directory: new DynamoDirectoryStore(table),
  statements: new DynamoStatementStore(table),
  priceLists: new DynamoPriceListStore(table),
  // The WABAs' zones as kept: a client's months close in its billing timezone (decisions §31).
  known: new DynamoKnownCurrencies(table),
  sha256: (text: string) => createHash('sha256').update(text, 'utf8').digest('hex'),
  issuer: statementIssuerSettings(),
};

export const handler = httpFunction(GetStatement, ({ path, caller }) => statement(deps, caller, path), {
  // pdf-lib (about 430 KB of the bundle) is evaluated at the first PDF asked, not at every cold start.
  renderers: {
    'text/csv': statementCsv,
    'application/pdf': async (body) => (await import('#lib/http/statement-pdf.ts')).statementPdf(body),
  },
});
