import { createHash } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoCostLedger } from '#lib/adapters/dynamo/money/ledger-store.ts';
import { DynamoKnownCurrencies } from '#lib/adapters/dynamo/money/known-currencies.ts';
import { DynamoPriceListStore } from '#lib/adapters/dynamo/money/price-list-store.ts';
import { DynamoStatementStore } from '#lib/adapters/dynamo/money/statement-store.ts';
import { closeMonths } from '#lib/domain/money/statements/close-months.ts';
import { inInvocation, logger } from '#lib/log/logger.ts';
import { countMetrics } from '#lib/log/metrics.ts';
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
  log: logger,
};

/**
 * Every hour: each client's months past their close time are closed as of the schedule's `time` (now when
 * absent); `StatementsClosed` and `StatementClosesFailed` (which the stack alarms on) counted per run.
 */
export const handler = (event: { time?: string } | undefined, context?: Context) =>
  inInvocation(context, {}, async () => {
    const at = event?.time && !Number.isNaN(Date.parse(event.time)) ? Date.parse(event.time) : Date.now();
    const run = await closeMonths(deps, at);
    countMetrics({ StatementsClosed: run.closed, StatementClosesFailed: run.failed });
    logger.info('statements closed', { ...run, at: new Date(at).toISOString() });
    return run;
  });
