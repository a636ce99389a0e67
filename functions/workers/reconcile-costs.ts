import type { Context } from 'aws-lambda';
import { DynamoDirectoryStore } from '#lib/adapters/dynamo/shared/directory-store.ts';
import { DynamoCostLedger } from '#lib/adapters/dynamo/money/ledger-store.ts';
import { DynamoReconciliationStore } from '#lib/adapters/dynamo/money/reconciliation-store.ts';
import { DynamoKnownCurrencies } from '#lib/adapters/dynamo/money/known-currencies.ts';
import { KeptBillingCurrencies } from '#lib/domain/money/billing-currencies.ts';
import { reconcileCosts } from '#lib/domain/money/reconcile-costs.ts';
import { inInvocation, logger } from '#lib/log/logger.ts';
import { countMetrics } from '#lib/log/metrics.ts';
import { graphUpstream } from '#lib/wiring/upstream.ts';
import { serviceTable } from '#lib/wiring/table.ts';

const table = serviceTable();

/**
 * Once a day: the pricing_analytics of every WABA for the three days before the schedule's time (its `time`, now
 * when absent) and the days earlier runs failed to read, beside the ledger; each client's gap a `CostGaps` metric.
 */
export const handler = (event: { time?: string } | undefined, context?: Context) =>
  inInvocation(context, {}, () =>
    reconcileCosts(
      {
        ledger: new DynamoCostLedger(table),
        reconciliation: new DynamoReconciliationStore(table),
        directory: new DynamoDirectoryStore(table),
        upstream: graphUpstream(),
        // Each WABA's day is read in its zone (decisions §31), kept beside its currency.
        currencies: new KeptBillingCurrencies({ known: new DynamoKnownCurrencies(table), upstream: graphUpstream(), log: logger }),
        log: logger,
        onGap: () => countMetrics({ CostGaps: 1 }),
      },
      event?.time && !Number.isNaN(Date.parse(event.time)) ? event.time : new Date().toISOString(),
    ),
  );
